/** "£16.00", "-£1.60": for rule descriptions only; amounts stay integer pence everywhere else. */
export function formatPence(pence: number): string {
  const sign = pence < 0 ? '-' : '';
  const abs = Math.abs(pence);
  return `${sign}£${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * A share of an amount in basis points, rounded down to the penny. Rounding down always favours
 * the passenger, so a percentage uplift can never push a quote past a council's maximum fare.
 */
export function shareOf(pence: number, basisPoints: number): number {
  return Math.floor((pence * basisPoints) / 10000);
}

export function formatBasisPoints(basisPoints: number): string {
  const sign = basisPoints > 0 ? '+' : basisPoints < 0 ? '-' : '';
  return `${sign}${(Math.abs(basisPoints) / 100).toFixed(2).replace(/\.?0+$/, '')} %`;
}
