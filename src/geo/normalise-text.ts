// One normal form for names and queries, so "King's Cross", "kings cross" and "KINGS-CROSS"
// (or "Ynys Môn" and "Ynys Mon") meet in the same index key.

const TOKEN_SYNONYMS: Record<string, string> = {
  saint: 'st',
  ste: 'st',
  intl: 'international',
  stn: 'station',
  rly: 'railway',
  apt: 'airport',
};

export function normaliseText(input: string): string {
  const folded = input
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['’‘`]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
  if (folded === '') return '';
  return folded
    .split(' ')
    .map((token) => TOKEN_SYNONYMS[token] ?? token)
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
