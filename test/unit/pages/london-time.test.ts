import { describe, expect, it } from 'vitest';
import { londonInstant } from '../../../src/pages/browser/london-time.js';

// The ops form's new pickup time (src/pages/browser/ops-bookings.ts) is London wall time; it must
// name the right instant on either side of both clock changes of 2026 (29 March, 25 October).

describe('londonInstant', () => {
  it('reads GMT in winter and BST in summer', () => {
    expect(londonInstant('2026-01-15T09:00')).toEqual({ ok: true, iso: '2026-01-15T09:00:00.000Z' });
    expect(londonInstant('2026-07-03T15:30')).toEqual({ ok: true, iso: '2026-07-03T14:30:00.000Z' });
  });

  it('keeps the minutes either side of the spring change and refuses the hour that never happens', () => {
    expect(londonInstant('2026-03-29T00:59')).toEqual({ ok: true, iso: '2026-03-29T00:59:00.000Z' });
    expect(londonInstant('2026-03-29T02:00')).toEqual({ ok: true, iso: '2026-03-29T01:00:00.000Z' });
    for (const gone of ['2026-03-29T01:00', '2026-03-29T01:30', '2026-03-29T01:59']) {
      const r = londonInstant(gone);
      expect(r.ok).toBe(false);
      expect(!r.ok && r.problem).toBe(
        `${gone.slice(11)} on 29 Mar 2026 does not happen in London: the clocks go forward an hour. Pick another time.`,
      );
    }
  });

  it('takes the first of the hour that happens twice in autumn, in BST', () => {
    expect(londonInstant('2026-10-25T00:59')).toEqual({ ok: true, iso: '2026-10-24T23:59:00.000Z' });
    expect(londonInstant('2026-10-25T01:00')).toEqual({ ok: true, iso: '2026-10-25T00:00:00.000Z' });
    expect(londonInstant('2026-10-25T01:30')).toEqual({ ok: true, iso: '2026-10-25T00:30:00.000Z' });
    expect(londonInstant('2026-10-25T02:00')).toEqual({ ok: true, iso: '2026-10-25T02:00:00.000Z' });
  });

  it('refuses what is not a date and time', () => {
    expect(londonInstant('2026-13-01T10:00')).toEqual({
      ok: false,
      problem: '2026-13-01T10:00 is not a date and time.',
    });
    expect(londonInstant('')).toMatchObject({ ok: false });
  });
});
