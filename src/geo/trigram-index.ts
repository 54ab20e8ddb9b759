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

/** Unique trigram keys of a normalised string, padded with a boundary symbol at each end. */
export function trigramKeys(text: string): number[] {
  const symbols = [0];
  for (let i = 0; i < text.length; i++) symbols.push(symbol(text.charCodeAt(i)));
  symbols.push(0);
  const keys: number[] = [];
  for (let i = 0; i + 2 < symbols.length; i++) {
    keys.push(((symbols[i] ?? 0) * ALPHABET + (symbols[i + 1] ?? 0)) * ALPHABET + (symbols[i + 2] ?? 0));
  }
  keys.sort((x, y) => x - y);
  return keys.filter((key, i) => i === 0 || key !== keys[i - 1]);
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
    const perString = strings.map(trigramKeys);
    this.gramCount = Uint16Array.from(perString, (keys) => keys.length);
    this.shared = new Uint16Array(strings.length);
    for (const keys of perString) for (const key of keys) this.offsets[key + 1]! += 1;
    for (let k = 0; k < KEYS; k++) this.offsets[k + 1]! += this.offsets[k]!;
    this.postings = new Int32Array(this.offsets[KEYS]!);
    const fill = this.offsets.slice(0, KEYS);
    perString.forEach((keys, id) => {
      for (const key of keys) this.postings[fill[key]!++] = id;
    });
  }

  /** Strings whose Dice similarity to `query` is at least `minDice`, best first, at most `limit`. */
  search(query: string, minDice: number, limit: number): TrigramCandidate[] {
    const queryKeys = trigramKeys(query);
    const touched: number[] = [];
    for (const key of queryKeys) {
      const end = this.offsets[key + 1]!;
      for (let p = this.offsets[key]!; p < end; p++) {
        const id = this.postings[p]!;
        if (this.shared[id] === 0) touched.push(id);
        this.shared[id]! += 1;
      }
    }
    const found: TrigramCandidate[] = [];
    for (const id of touched) {
      const dice = (2 * this.shared[id]!) / (queryKeys.length + this.gramCount[id]!);
      this.shared[id] = 0;
      if (dice >= minDice) found.push({ id, dice });
    }
    found.sort((a, b) => b.dice - a.dice);
    return found.length > limit ? found.slice(0, limit) : found;
  }
}
