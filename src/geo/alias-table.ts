// Name → entries index stored in typed arrays. About 60k names point at 45k entries; holding
// them as objects made the boot-time load spend a third of its time in the garbage collector.

export interface AliasHit {
  entryId: number;
  score: number;
  derived: boolean;
}

export class AliasTable {
  private readonly ids = new Map<string, number>();
  /** Alias keys by alias id, for the fuzzy index. */
  readonly keys: string[] = [];
  private head = new Int32Array(1 << 16);
  private refEntry = new Int32Array(1 << 16);
  private refScore = new Float64Array(1 << 16);
  private refDerived = new Uint8Array(1 << 16);
  private refNext = new Int32Array(1 << 16);
  private refCount = 0;

  add(key: string, entryId: number, score: number, derived: boolean): void {
    if (key === '') return;
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.keys.length;
      this.ids.set(key, id);
      this.keys.push(key);
      if (id >= this.head.length) this.head = grow(this.head);
      this.head[id] = -1;
    }
    // One entry can reach the same key by several rules; keep its strongest, preferring source names.
    for (let ref = this.head[id] ?? -1; ref >= 0; ref = this.refNext[ref] ?? -1) {
      if (this.refEntry[ref] !== entryId) continue;
      const existing = this.refScore[ref] ?? 0;
      if (score > existing || (score === existing && !derived)) {
        this.refScore[ref] = score;
        this.refDerived[ref] = derived ? 1 : 0;
      }
      return;
    }
    const ref = this.refCount++;
    if (ref >= this.refEntry.length) {
      this.refEntry = grow(this.refEntry);
      this.refScore = grow(this.refScore);
      this.refDerived = grow(this.refDerived);
      this.refNext = grow(this.refNext);
    }
    this.refEntry[ref] = entryId;
    this.refScore[ref] = score;
    this.refDerived[ref] = derived ? 1 : 0;
    this.refNext[ref] = this.head[id] ?? -1;
    this.head[id] = ref;
  }

  has(key: string): boolean {
    return this.ids.has(key);
  }

  hits(key: string): AliasHit[] {
    const id = this.ids.get(key);
    return id === undefined ? [] : this.hitsById(id);
  }

  hitsById(id: number): AliasHit[] {
    const out: AliasHit[] = [];
    for (let ref = this.head[id] ?? -1; ref >= 0; ref = this.refNext[ref] ?? -1) {
      out.push({
        entryId: this.refEntry[ref] ?? -1,
        score: this.refScore[ref] ?? 0,
        derived: this.refDerived[ref] === 1,
      });
    }
    return out;
  }
}

function grow<T extends Int32Array | Float64Array | Uint8Array>(array: T): T {
  const bigger = new (array.constructor as new (length: number) => T)(array.length * 2);
  bigger.set(array);
  return bigger;
}
