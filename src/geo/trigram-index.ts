// Fuzzy lookup must not run an edit-distance scan over ~60k names per request. A trigram inverted
// index narrows the field to strings sharing enough three-letter pieces with the query (Dice
// coefficient), and only that short list is ranked by edit distance.

const ALPHABET = 38; // boundary, a-z, 0-9, space
const KEYS = ALPHABET * ALPHABET * ALPHABET;

function symbol(code: number): number {
  if (code >= 97 && code <= 122) return code - 96;
  if (code >= 48 && code <= 57) return code - 48 + 27;
  return 37;
}

/** Calls `visit` with each trigram key of a normalised string, padded with a boundary symbol. */
function forEachTrigram(text: string, visit: (key: number) => void): void {
  let a = 0;
  let b = text.length > 0 ? symbol(text.charCodeAt(0)) : 0;
  for (let i = 1; i <= text.length; i++) {
    const c = i < text.length ? symbol(text.charCodeAt(i)) : 0;
    visit((a * ALPHABET + b) * ALPHABET + c);
    a = b;
    b = c;
  }
}

/** Unique trigram keys of a normalised string. */
export function trigramKeys(text: string): number[] {
  const keys: number[] = [];
  forEachTrigram(text, (key) => {
    if (!keys.includes(key)) keys.push(key);
  });
  return keys;
}

export interface TrigramCandidate {
  id: number;
  dice: number;
}

export class TrigramIndex {
  private readonly offsets = new Int32Array(KEYS + 1);
  private readonly postings: Int32Array;
  private readonly gramCount: Uint16Array;
  private readonly shared: Uint16Array;

  constructor(strings: readonly string[]) {
    this.gramCount = new Uint16Array(strings.length);
    this.shared = new Uint16Array(strings.length);
    // `stamp[key] === id + 1` marks a trigram already counted for string `id`, which dedupes
    // without allocating a set per string (this runs over ~60k names at boot).
    const stamp = new Int32Array(KEYS);
    strings.forEach((text, id) => {
      forEachTrigram(text, (key) => {
        if (stamp[key] === id + 1) return;
        stamp[key] = id + 1;
        this.offsets[key + 1]! += 1;
        this.gramCount[id]! += 1;
      });
    });
    for (let k = 0; k < KEYS; k++) this.offsets[k + 1]! += this.offsets[k]!;
    this.postings = new Int32Array(this.offsets[KEYS]!);
    const fill = this.offsets.slice(0, KEYS);
    stamp.fill(0);
    strings.forEach((text, id) => {
      forEachTrigram(text, (key) => {
        if (stamp[key] === id + 1) return;
        stamp[key] = id + 1;
        this.postings[fill[key]!++] = id;
      });
    });
  }

  /**
   * Strings whose Dice similarity to `query` is at least `minDice` and that share at least
   * `minShared` of its trigrams, best first, at most `limit`.
   *
   * Only the rarest `n - minShared + 1` posting lists are walked: a string sharing `minShared` of
   * the query's `n` trigrams must be in at least one of any `n - minShared + 1` of their lists
   * (pigeonhole). The long lists of common trigrams ("ote", "tel", " ho") are then only probed,
   * by binary search, for the ids already found: this is what keeps a query such as "Royal Albion
   * Hotel Brighton" from touching every hotel in the index.
   */
  search(query: string, minDice: number, limit: number, minShared = 1): TrigramCandidate[] {
    const queryKeys = trigramKeys(query).sort((a, b) => this.listLength(a) - this.listLength(b));
    const walked = Math.max(1, queryKeys.length - Math.max(1, minShared) + 1);
    const touched: number[] = [];
    for (const key of queryKeys.slice(0, walked)) {
      const end = this.offsets[key + 1]!;
      for (let p = this.offsets[key]!; p < end; p++) {
        const id = this.postings[p]!;
        if (this.shared[id] === 0) touched.push(id);
        this.shared[id]! += 1;
      }
    }
    for (const key of queryKeys.slice(walked)) {
      for (const id of touched) if (this.contains(key, id)) this.shared[id]! += 1;
    }
    const found: TrigramCandidate[] = [];
    for (const id of touched) {
      const shared = this.shared[id]!;
      this.shared[id] = 0;
      const dice = (2 * shared) / (queryKeys.length + this.gramCount[id]!);
      if (shared >= minShared && dice >= minDice) found.push({ id, dice });
    }
    found.sort((a, b) => b.dice - a.dice);
    return found.length > limit ? found.slice(0, limit) : found;
  }

  private listLength(key: number): number {
    return this.offsets[key + 1]! - this.offsets[key]!;
  }

  /** Posting lists are in ascending id order (filled in string order): binary search. */
  private contains(key: number, id: number): boolean {
    let lo = this.offsets[key]!;
    let hi = this.offsets[key + 1]! - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.postings[mid]!;
      if (at === id) return true;
      if (at < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }
}
