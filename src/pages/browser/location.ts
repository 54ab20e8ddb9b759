// When the driver app sends the phone's position (driver-app.ts): online means dispatchable, so
// the position goes on a heartbeat even while the car stands still on a rank, and a phone that
// cannot give one is said so plainly. Dispatch passes over a position older than 10 minutes.

/** A position at least this often while online, moved or not. */
export const LOCATION_HEARTBEAT_MS = 60000;

/** Whether the heartbeat is due, the last position having gone at `lastSent` (ms). */
export function heartbeatDue(lastSent: number, now: number): boolean {
  return now - lastSent >= LOCATION_HEARTBEAT_MS;
}

const LOCATION_PROBLEMS: Record<number, string> = {
  1: 'Location is blocked for this page: allow it in your browser settings, or you get no jobs.',
  2: 'Your phone cannot find where it is just now (no GPS or network fix): you get no jobs until it can.',
  3: 'Your phone is taking too long to find where it is: you get no jobs until it can.',
};

/** What the driver is told for a GeolocationPositionError's code (1 denied, 2 unavailable, 3 timeout). */
export function locationProblem(code: number): string {
  return LOCATION_PROBLEMS[code] ?? LOCATION_PROBLEMS[2]!;
}
