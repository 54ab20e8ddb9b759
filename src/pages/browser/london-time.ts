import { DateTime } from 'luxon';

// A London wall-clock time as typed into a datetime-local input (the ops form's new pickup time),
// as the instant it names. Twice a year the wall clock and the instants part: at the spring change
// (last Sunday of March) 01:00–01:59 never happens, and at the autumn one (last Sunday of October)
// it happens twice, first in BST and then in GMT. A time that never happens is refused, not moved
// (staff would not see that a driver was sent an hour off); one that happens twice is the first of
// the two, the earlier pickup, so a driver waits rather than comes an hour late.

export type LondonInstant = { ok: true; iso: string } | { ok: false; problem: string };

const FORMAT = "yyyy-MM-dd'T'HH:mm";

/** `local` is `YYYY-MM-DDTHH:MM` (or with seconds), London time; the instant is ISO 8601 in UTC. */
export function londonInstant(local: string): LondonInstant {
  // The wall clock as typed, in a zone without changes, to compare London's reading of it with.
  const wall = DateTime.fromISO(local, { zone: 'UTC' });
  if (!wall.isValid) return { ok: false, problem: `${local} is not a date and time.` };
  // luxon moves a time that never happens forward by the gap; the earlier of two comes first.
  const [first] = DateTime.fromISO(local, { zone: 'Europe/London' }).getPossibleOffsets();
  if (!first || first.toFormat(FORMAT) !== wall.toFormat(FORMAT)) {
    return {
      ok: false,
      problem: `${wall.toFormat('HH:mm')} on ${wall.toFormat('d LLL yyyy')} does not happen in London: the clocks go forward an hour. Pick another time.`,
    };
  }
  return { ok: true, iso: first.toUTC().toISO()! };
}
