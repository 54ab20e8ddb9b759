// How often the tracking page asks again (track.ts): every 2.5 s, backing off while the service
// cannot be reached (5 s, 10 s, 20 s, then every 30 s), so a lost connection does not hammer it.

export const POLL_MS = 2500;
const MAX_MS = 30000;

/** The wait before the next poll after `failures` failed ones in a row. */
export function pollDelay(failures: number): number {
  return Math.min(POLL_MS * 2 ** Math.min(failures, 4), MAX_MS);
}
