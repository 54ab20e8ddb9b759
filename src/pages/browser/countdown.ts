// The job card's reply countdown (job-offer.ts), counted from the seconds the server had left,
// not from its clock: a phone's clock may be off.

/** Whole seconds left of `total`, `elapsedMs` after the page started counting; never below 0. */
export function secondsLeft(total: number, elapsedMs: number): number {
  return Math.max(0, Math.ceil(total - elapsedMs / 1000));
}

/** 75 seconds as "1:15". */
export function minutesAndSeconds(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
