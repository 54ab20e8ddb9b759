/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent transpositions), so "Edinbrugh"
 * is one edit from "Edinburgh" like a plain typo. Stops early once every cell exceeds `max`.
 */
export function osaDistance(a: string, b: string, max = Infinity): number {
  if (a === b) return 0;
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > max) return max + 1;
  if (n === 0) return m;
  if (m === 0) return n;
  let prevPrev = new Array<number>(m + 1).fill(0);
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  let curr = new Array<number>(m + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    curr[0] = i;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= m; j++) {
      const bj = b.charCodeAt(j - 1);
      const cost = ai === bj ? 0 : 1;
      let value = Math.min((prev[j] ?? 0) + 1, (curr[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) {
        value = Math.min(value, (prevPrev[j - 2] ?? 0) + 1);
      }
      curr[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    [prevPrev, prev, curr] = [prev, curr, prevPrev];
  }
  return prev[m] ?? max + 1;
}

/** Edits a typo may make in one word: none in short words ("york" is not "work"), more in long ones. */
export function editsAllowedInWord(length: number): number {
  if (length < 4) return 0;
  if (length < 8) return 1;
  return 2;
}

/**
 * True when `candidate` is `query` with typos inside its words, word for word: "manchster
 * piccadilly" aligns with "manchester piccadilly", but "york minster" does not align with
 * "worminster" (the distinctive word "minster" would have become part of another name) and
 * "the shard" does not align with "the wharf" (two edits in a five-letter word make another word).
 * A space typed or missed ("kingscross") is allowed when nothing else differs.
 */
export function wordsAlign(query: string, candidate: string): boolean {
  const q = query.split(' ').filter(Boolean);
  const c = candidate.split(' ').filter(Boolean);
  if (q.length !== c.length) return q.join('') === c.join('');
  return q.every((word, i) => {
    const other = c[i] ?? '';
    const allowed = editsAllowedInWord(Math.min(word.length, other.length));
    // A word's first letter is rarely the typo; changing it usually names something else.
    return (
      osaDistance(word, other, allowed) <= allowed &&
      (allowed === 0 || word[0] === other[0] || (osaDistance(word, other, 1) <= 1 && word.length >= 6))
    );
  });
}
