// One normal form for names and queries, so "King's Cross", "kings cross" and "KINGS-CROSS"
// (or "Ynys Môn" and "Ynys Mon") meet in the same index key. Runs ~100k times while the
// gazetteer loads, hence the hand-written loop instead of a chain of regular expressions.

const TOKEN_SYNONYMS = new Map([
  ['saint', 'st'],
  ['intl', 'international'],
  ['stn', 'station'],
  ['rly', 'railway'],
]);
const HAS_SYNONYM = /\b(saint|intl|stn|rly)\b/;
const NON_ASCII = /[\u0080-\uffff]/;

export function normaliseText(input: string): string {
  const folded = NON_ASCII.test(input) ? input.normalize('NFKD').replace(/\p{M}/gu, '') : input;
  let out = '';
  let gap = false;
  for (let i = 0; i < folded.length; i++) {
    let c = folded.charCodeAt(i);
    if (c >= 65 && c <= 90) c += 32;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      if (gap && out !== '') out += ' ';
      gap = false;
      out += String.fromCharCode(c);
    } else if (c === 38) {
      out += out === '' ? 'and' : ' and';
      gap = true;
    } else if (c !== 39 && c !== 0x2019 && c !== 0x2018 && c !== 96) {
      // Apostrophes vanish ("king's" → "kings"); everything else separates words.
      gap = true;
    }
  }
  if (!HAS_SYNONYM.test(out)) return out;
  return out
    .split(' ')
    .map((token) => TOKEN_SYNONYMS.get(token) ?? token)
    .join(' ');
}

export function tokens(normalised: string): string[] {
  return normalised === '' ? [] : normalised.split(' ');
}

/** True when `needle` appears in `haystack` as whole words (both already normalised). */
export function containsWords(haystack: string, needle: string): boolean {
  if (needle === '' || haystack === '') return false;
  return ` ${haystack} `.includes(` ${needle} `);
}
