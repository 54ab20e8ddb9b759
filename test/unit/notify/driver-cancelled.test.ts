import { describe, expect, it } from 'vitest';
import { createBookingRecordActivities } from '../../../activities/bookings/records.js';
import type { Sql } from '../../../src/db/sql.js';
import type { Notifier, OutboundMessage } from '../../../src/notify/notifier.js';

// The cancel activity with its database and notifier faked: what the driver and the passenger read
// when a booking is cancelled, by each who may cancel it. The cancel reason reaches no one.

const REF = 'TXAB12CD34';
const REASON = 'Driver was rude, call me on 07700 900123 http://evil.example';

function world(opts: { source?: string; partnerName?: string | null } = {}) {
  const booking = {
    ref: REF,
    source: opts.source ?? 'v1_direct',
    passenger_phone: '+447700900001',
    pickup_at: new Date('2026-07-03T12:00:00Z'),
    pickup: { label: 'Leeds Station' },
    dropoff: { label: 'Leeds Bradford Airport' },
  };
  const drivers: Record<string, { id: string; phone: string }> = { 'drv-1': { id: 'drv-1', phone: '+447700900002' } };
  const queries: string[] = [];
  const sql = (async (strings: TemplateStringsArray, ...values: unknown[]) => {
    const text = strings.join('?');
    queries.push(text);
    if (/from bookings b/.test(text)) return [booking];
    if (/from drivers where id/.test(text)) return drivers[String(values[0])] ? [drivers[String(values[0])]] : [];
    if (/from partner_jobs/.test(text)) return opts.partnerName ? [{ name: opts.partnerName }] : [];
    return [];
  }) as unknown as Sql & { begin: unknown };
  (sql as unknown as { begin: (fn: (tx: Sql) => Promise<unknown>) => Promise<unknown> }).begin = (fn) => fn(sql);
  const sent: OutboundMessage[] = [];
  const notifier: Notifier = {
    send: async (msg) => {
      sent.push(msg);
      return { provider: 'fake', providerMessageId: null, duplicate: false };
    },
  };
  const acts = createBookingRecordActivities({ sql, notifier });
  const toDriver = () => sent.filter((m) => m.to === drivers['drv-1']!.phone).map((m) => m.body);
  const toPassenger = () => sent.filter((m) => m.to === booking.passenger_phone).map((m) => m.body);
  return { acts, sent, queries, toDriver, toPassenger };
}

describe('a cancelled booking’s texts', () => {
  it('tell the driver our operations team cancelled when ops did', async () => {
    const w = world();
    await w.acts.cancelBooking({ ref: REF, reason: REASON, offerId: null, driverId: 'drv-1', by: 'ops' });
    expect(w.toDriver()).toEqual([`Job ${REF} has been cancelled by Direct Taxi operations. No action needed.`]);
  });

  it('tell the driver the passenger cancelled when the passenger did, and the passenger that it is cancelled', async () => {
    const w = world();
    await w.acts.cancelBooking({ ref: REF, reason: REASON, offerId: null, driverId: 'drv-1', by: 'passenger' });
    expect(w.toDriver()).toEqual([`Job ${REF} has been cancelled by the passenger. No action needed.`]);
    expect(w.toPassenger()).toHaveLength(1);
    expect(w.toPassenger()[0]).toContain(`taxi ${REF}`);
  });

  it('name the partner our staff registered when a partner cancelled, and leave its customer to it', async () => {
    const w = world({ source: 'partner', partnerName: 'Acme Travel' });
    await w.acts.cancelBooking({ ref: REF, reason: REASON, offerId: null, driverId: 'drv-1', by: 'partner' });
    expect(w.toDriver()).toEqual([`Job ${REF} has been cancelled by Acme Travel. No action needed.`]);
    expect(w.toPassenger()).toEqual([]);
  });

  it('say "the booking partner" for a partner with no registered name on the booking', async () => {
    const w = world({ source: 'operator', partnerName: null });
    await w.acts.cancelBooking({ ref: REF, reason: null, offerId: null, driverId: 'drv-1', by: 'partner' });
    expect(w.toDriver()).toEqual([`Job ${REF} has been cancelled by the booking partner. No action needed.`]);
  });

  it('look no partner up for anyone else’s cancel', async () => {
    const w = world({ partnerName: 'Acme Travel' });
    await w.acts.cancelBooking({ ref: REF, reason: null, offerId: null, driverId: 'drv-1', by: 'passenger' });
    expect(w.queries.some((q) => q.includes('partner_jobs'))).toBe(false);
  });

  it('name no one when the activity comes without `by` (scheduled by a workflow before it passed it)', async () => {
    const w = world();
    await w.acts.cancelBooking({ ref: REF, reason: REASON, offerId: null, driverId: 'drv-1' });
    expect(w.toDriver()).toEqual([`Job ${REF} has been cancelled. No action needed.`]);
  });

  it('reach the driver who only had the job card', async () => {
    const w = world();
    await w.acts.cancelBooking({ ref: REF, reason: null, offerId: `${REF}:2:drv-1`, driverId: null, by: 'ops' });
    expect(w.sent.find((m) => m.to === '+447700900002')?.idempotencyKey).toBe(`cancelled:${REF}:drv-1`);
    expect(w.toDriver()).toEqual([`Job ${REF} has been cancelled by Direct Taxi operations. No action needed.`]);
  });

  it('carry no word of the cancel reason, to anyone', async () => {
    for (const by of ['passenger', 'partner', 'ops', undefined] as const) {
      const w = world({ partnerName: 'Acme Travel' });
      await w.acts.cancelBooking({ ref: REF, reason: REASON, offerId: null, driverId: 'drv-1', ...(by ? { by } : {}) });
      expect(w.sent.length).toBeGreaterThan(0);
      for (const m of w.sent) {
        expect(m.body).not.toMatch(/rude|07700|evil|http/i);
        expect(m.subject ?? '').not.toMatch(/rude/i);
      }
    }
  });
});
