// One sending policy for every message the service pays for (issue 33, item 1): through HTTP on the
// real stack, texts counted in the outbox and what was held back in messages_withheld. A booking
// naming a number that charges its caller is refused; one naming a foreign mobile or a landline
// stands but is not texted; a plain API key, one address (an IPv6 /64 as one) and the day's
// ceiling each text at most their allowance, returning passengers first; a driver is texted at most
// their hourly job cards and billed only for jobs they took; a partner never pays for a claim link.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { createStaff } from '../../src/auth/staff.js';
import { weekSmsCount } from '../../src/billing/subscription-store.js';
import { partnersSmsInWeek } from '../../src/billing/partner-invoice-store.js';
import { messageCeilingKey } from '../../src/notify/sending-policy.js';
import { createPartner } from '../../src/partners/store.js';
import {
  createDriver,
  respond,
  takeDriversOffline,
  testMobile,
  waitForJobCard,
  type TestDriver,
} from '../support/drivers.js';
import { eventually, STACK_WAIT_MS, startStack, type TestStack } from '../support/stack.js';

const PER_RECIPIENT = 3;
const PER_CALLER = 3;
const JOB_CARDS_PER_HOUR = 2;

let stack: TestStack;
const drivers: TestDriver[] = [];
beforeAll(async () => {
  stack = await startStack({
    BOOKING_TEXTS_PER_RECIPIENT_PER_HOUR: String(PER_RECIPIENT),
    BOOKING_TEXTS_PER_CALLER_PER_HOUR: String(PER_CALLER),
    JOB_CARD_SMS_PER_DRIVER_PER_HOUR: String(JOB_CARDS_PER_HOUR),
    BOOKING_RATE_LIMIT_PER_HOUR: '1000',
    OFFER_TIMEOUT_SECONDS: '300',
  });
});
afterAll(async () => {
  await takeDriversOffline(stack?.sql, drivers);
  await stack?.close();
});

let hours = 30;
/** A pickup well ahead, a different one each time (each a trip of its own), so nothing is dispatched yet. */
const later = () => new Date(Date.now() + hours++ * 3600_000).toISOString();

function instant(
  phone: string,
  opts: { from: string; key?: string; departAt?: string; pickup?: string; dropoff?: string },
) {
  return stack.app.inject({
    method: 'POST',
    url: '/api/public/bookings/instant',
    remoteAddress: opts.from,
    headers: opts.key ? { 'x-api-key': opts.key } : {},
    payload: {
      pickup_address: opts.pickup ?? '14 Wilmslow Road, Rusholme M14 5TP',
      dropoff_address: opts.dropoff ?? 'Manchester Airport',
      passenger_name: 'Ada Lovelace',
      passenger_phone_whatsapp: phone,
      depart_at: opts.departAt ?? later(),
    },
  });
}

async function booked(phone: string, opts: Parameters<typeof instant>[1]): Promise<string> {
  const res = await instant(phone, opts);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ booking_reference: string }>().booking_reference;
}

/** How the booking's "booked" text went, once its workflow has sent or held it: 'sent', or the reason it was held back. */
function bookedText(ref: string): Promise<string> {
  return eventually(
    async () => {
      const [row] = await stack.sql<{ outcome: string }[]>`
      select 'sent' as outcome from outbox where idempotency_key = ${`booked:${ref}`} and sent_at is not null
      union all
      select reason from messages_withheld where idempotency_key = ${`booked:${ref}`}`;
      return row?.outcome;
    },
    STACK_WAIT_MS,
    `the booked text of ${ref}`,
  );
}

async function outcomes(refs: string[]): Promise<Record<string, number>> {
  const all = await Promise.all(refs.map(bookedText));
  return all.reduce<Record<string, number>>((n, o) => ({ ...n, [o]: (n[o] ?? 0) + 1 }), {});
}

const smsTo = async (phone: string) =>
  (await stack.sql`select 1 from outbox where recipient = ${phone} and channel in ('sms', 'whatsapp')`).length;
const addressOctet = () => Math.floor(Math.random() * 250) + 1;

describe('numbers the service texts', () => {
  it('refuses a booking naming a number that charges its caller, and texts nothing to it', async () => {
    for (const [typed, e164] of [
      ['+44 909 879 0123', '+449098790123'], // premium-rate
      ['070 2412 3456', '+447024123456'], // personal numbering
      ['+881 6 1234 5678', '+881612345678'], // satellite
      ['0871 234 5678', '+448712345678'], // shared cost
    ] as const) {
      const res = await instant(typed, { from: `192.0.2.${addressOctet()}` });
      expect(res.statusCode, `${typed}: ${res.body}`).toBe(400);
      expect(res.json().errors[0]).toMatchObject({ field: 'body.passenger_phone_whatsapp' });
      expect(await smsTo(e164)).toBe(0);
    }
  });

  it('books a foreign mobile or a landline but does not text it', async () => {
    const from = `192.0.2.${addressOctet()}`;
    const suffix = String(Math.floor(Math.random() * 900) + 100);
    const foreign = `+33612${suffix}678`;
    const landline = `+441614960${suffix}`;
    const { key: staffKey } = await createStaff(stack.sql, { name: 'Policy ops', role: 'operator' });
    for (const phone of [foreign, landline]) {
      const ref = await booked(phone, { from });
      expect(await bookedText(ref)).toBe('number_not_served');
      expect(await smsTo(phone)).toBe(0);
      // Ops see what was held back, and why, in the booking's story.
      const story = await stack.app.inject({
        method: 'GET',
        url: `/api/ops/bookings/${ref}`,
        headers: { authorization: `Bearer ${staffKey}` },
      });
      expect(story.statusCode, story.body).toBe(200);
      expect(story.json().messages).toContainEqual(
        expect.objectContaining({
          key: `booked:${ref}`,
          to: phone,
          provider: 'withheld',
          sent_at: null,
          withheld: 'number_not_served',
        }),
      );
    }
    // And /metrics counts them, for an alert.
    const metrics = await stack.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.statusCode).toBe(200);
    const held = /taxi_messages_withheld_today\{reason="number_not_served"\} (\d+)/.exec(metrics.body);
    expect(Number(held?.[1])).toBeGreaterThanOrEqual(2);
  });
});

describe('allowances', () => {
  it('texts one phone about at most its hourly allowance of bookings, even under one API key', async () => {
    const { key } = await createApiKey(stack.sql, { name: `desk-${randomUUID()}` });
    const phone = testMobile();
    const refs: string[] = [];
    for (let i = 0; i < PER_RECIPIENT + 3; i++) refs.push(await booked(phone, { from: '198.51.100.20', key }));
    expect(await outcomes(refs)).toEqual({ sent: PER_RECIPIENT, recipient_hourly_cap: 3 });
    expect(
      (await stack.sql`select 1 from outbox where recipient = ${phone} and idempotency_key like 'booked:%'`).length,
    ).toBe(PER_RECIPIENT);
    // Each booking stands: only the text was held back.
    const rows = await stack.sql`select 1 from bookings where ref in ${stack.sql(refs)}`;
    expect(rows.length).toBe(refs.length);
  });

  it('texts the passengers of one address at most its hourly allowance of new numbers, returning passengers apart', async () => {
    const from = `203.0.113.${addressOctet()}`;
    const fresh = Array.from({ length: PER_CALLER + 2 }, () => testMobile());
    const refs: string[] = [];
    for (const phone of fresh) refs.push(await booked(phone, { from }));
    expect(await outcomes(refs)).toEqual({ sent: PER_CALLER, caller_hourly_cap: 2 });

    // A passenger who has signed in before is not what a pumping run through fresh numbers makes.
    const returning = testMobile();
    await stack.sql`insert into passenger_accounts (id, phone, last_sign_in_at) values (${randomUUID()}, ${returning}, now() - interval '3 days')`;
    expect(await bookedText(await booked(returning, { from }))).toBe('sent');
  });

  it('tells a passenger who took charge of a stranger’s booking, whatever his address had spent', async () => {
    // A stranger's address has spent its allowance; his next booking, of her phone, is not texted.
    const from = `203.0.113.${addressOctet()}`;
    for (let i = 0; i < PER_CALLER; i++) await bookedText(await booked(testMobile(), { from }));
    const hers = testMobile();
    const departAt = later();
    const ref = await booked(hers, { from, departAt });
    expect(await bookedText(ref)).toBe('caller_hourly_cap');

    // She asks for the trip herself: refused, and her phone gets the link to take charge.
    const mine = await instant(hers, { from: `198.51.100.${addressOctet()}`, departAt });
    expect(mine.statusCode, mine.body).toBe(409);
    const link = await eventually(
      async () => {
        const [row] = await stack.sql<
          { body: string }[]
        >`select body from outbox where recipient = ${hers} and purpose = 'claim_link'`;
        return row ? /\/claim\/(bcl_[A-Za-z0-9_-]+)/.exec(row.body)?.[1] : undefined;
      },
      STACK_WAIT_MS,
      'her claim link',
    );
    const claimed = await stack.app.inject({
      method: 'POST',
      url: `/claim/${link}`,
      remoteAddress: '198.51.100.50',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ name: 'Ada Lovelace' }).toString(),
    });
    expect(claimed.statusCode, claimed.body).toBe(200);
    const token = /<code>(bmt_[A-Za-z0-9_-]+)<\/code>/.exec(claimed.body)?.[1];
    // Her booking's news reaches her now: she cancels it, and is told.
    const cancel = await stack.app.inject({
      method: 'POST',
      url: `/api/public/v1/booking/${ref}`,
      payload: { action: 'cancel', token },
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const told = await eventually(
      async () => {
        const [row] = await stack.sql<{ outcome: string }[]>`
        select 'sent' as outcome from outbox where idempotency_key = ${`passenger-cancelled:${ref}`}
        union all select reason from messages_withheld where idempotency_key = ${`passenger-cancelled:${ref}`}`;
        return row?.outcome;
      },
      STACK_WAIT_MS,
      'her cancel text',
    );
    expect(told).toBe('sent');
  });

  it('counts an IPv6 /64 as one address', async () => {
    const prefix = `2001:db8:${addressOctet().toString(16)}:${addressOctet().toString(16)}`;
    const refs: string[] = [];
    for (let i = 1; i <= PER_CALLER + 1; i++)
      refs.push(await booked(testMobile(), { from: `${prefix}::${i.toString(16)}` }));
    expect(await outcomes(refs)).toEqual({ sent: PER_CALLER, caller_hourly_cap: 1 });
  });

  it('keeps the second half of the day’s ceiling for keys and returning passengers, and stops at the ceiling', async () => {
    // The day's counter is the service's; this file is alone on the database while it runs.
    await stack.sql`delete from rate_limit_counters where key = ${messageCeilingKey('sms')}`;
    const ceiling = await startStack({ BOOKING_SMS_PER_DAY: '6', BOOKING_RATE_LIMIT_PER_HOUR: '1000' });
    try {
      const anonymous = async (n: number) => {
        const refs: string[] = [];
        for (let i = 0; i < n; i++) {
          const res = await ceiling.app.inject({
            method: 'POST',
            url: '/api/public/bookings/instant',
            remoteAddress: `198.18.${addressOctet()}.${addressOctet()}`,
            payload: {
              pickup_address: '14 Wilmslow Road, Rusholme M14 5TP',
              dropoff_address: 'Manchester Airport',
              passenger_name: 'Ada',
              passenger_phone_whatsapp: testMobile(),
              depart_at: later(),
            },
          });
          expect(res.statusCode, res.body).toBe(200);
          refs.push(res.json().booking_reference);
        }
        return outcomes(refs);
      };
      expect(await anonymous(4)).toEqual({ sent: 3, daily_ceiling_new_recipients: 1 });
      const { key } = await createApiKey(stack.sql, { name: `partner-desk-${randomUUID()}` });
      const keyed: string[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await ceiling.app.inject({
          method: 'POST',
          url: '/api/public/bookings/instant',
          remoteAddress: '198.51.100.30',
          headers: { 'x-api-key': key },
          payload: {
            pickup_address: '14 Wilmslow Road, Rusholme M14 5TP',
            dropoff_address: 'Manchester Airport',
            passenger_name: 'Ada',
            passenger_phone_whatsapp: testMobile(),
            depart_at: later(),
          },
        });
        expect(res.statusCode, res.body).toBe(200);
        keyed.push(res.json().booking_reference);
      }
      // The anonymous one refused counted nothing, so the key's first three are texted (4 to 6 of
      // 6), and the fourth meets the ceiling.
      expect(await outcomes(keyed)).toEqual({ sent: 3, daily_ceiling: 1 });
      // Ops heard once, at 80 %.
      const day = new Date().toISOString().slice(0, 10);
      const alerts = await stack.sql`select 1 from outbox where idempotency_key = ${`ops-message-ceiling:sms:${day}`}`;
      expect(alerts.length).toBe(1);
    } finally {
      await ceiling.close();
      await stack.sql`delete from rate_limit_counters where key = ${messageCeilingKey('sms')}`;
    }
  });
});

describe('job cards and who pays for them', () => {
  it('texts a driver at most their hourly job cards, then WhatsApp only, and bills only the job they took', async () => {
    // Okehampton: far from every other file's drivers.
    const d = await createDriver(stack.sql, { lat: 50.739, lon: -4.004, homeArea: 'national-default' });
    drivers.push(d);
    const soon = async (n: number) => {
      const res = await instant(testMobile(), {
        from: `10.33.0.${n}`,
        pickup: 'Okehampton',
        dropoff: 'Okehampton station',
        departAt: new Date(Date.now() + 5 * 60_000).toISOString(),
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ booking_reference: string; manage_token: string }>();
    };
    const whatsappCard = (ref: string) =>
      eventually(
        async () => {
          const [row] = await stack.sql<{ body: string }[]>`
          select body from outbox where booking_ref = ${ref} and recipient = ${d.phone} and channel = 'whatsapp' and body like 'New job%'`;
          return row?.body;
        },
        STACK_WAIT_MS,
        `the WhatsApp card of ${ref}`,
      );
    const done = (ref: string) =>
      stack.client.workflow
        .getHandle(`booking:${ref}`)
        .terminate('test done')
        .catch(() => undefined);

    // The first: texted and taken, then cancelled by its passenger, which frees the driver.
    const first = await soon(1);
    const taken = await waitForJobCard(stack.sql, d, first.booking_reference);
    expect((await respond(stack.app, taken, 'accept')).statusCode).toBe(200);
    const cancelled = await stack.app.inject({
      method: 'POST',
      url: `/api/public/v1/booking/${first.booking_reference}`,
      payload: { action: 'cancel', token: first.manage_token },
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    // The second: texted and declined (its booking's workflow ended, so it comes to no one again).
    const second = await soon(2);
    expect(
      (await respond(stack.app, await waitForJobCard(stack.sql, d, second.booking_reference), 'decline')).statusCode,
    ).toBe(200);
    await done(second.booking_reference);
    // The third: past the hour's two texts, by WhatsApp (and the app) only.
    const third = await soon(3);
    expect(await whatsappCard(third.booking_reference)).toContain(third.booking_reference);
    const held = await stack.sql<{ reason: string }[]>`
      select reason from messages_withheld where booking_ref = ${third.booking_reference} and recipient = ${d.phone} and channel = 'sms'`;
    expect(held.map((h) => h.reason)).toEqual(['driver_hourly_cap']);
    await done(third.booking_reference);

    // Two cards texted; only the job the driver took is on their invoice: the declined one was
    // caused by whoever booked it, and the service pays for it.
    const weekStart = new Date(Date.now() - 3600_000).toISOString();
    const weekEnd = new Date(Date.now() + 3600_000).toISOString();
    const texted =
      await stack.sql`select 1 from outbox where recipient = ${d.phone} and channel = 'sms' and purpose = 'job_card' and sent_at is not null`;
    expect(texted.length).toBe(JOB_CARDS_PER_HOUR);
    const otherTexts =
      await stack.sql`select 1 from outbox where recipient = ${d.phone} and channel = 'sms' and purpose is distinct from 'job_card' and sent_at is not null`;
    expect(await weekSmsCount(stack.sql, d.id, weekStart, weekEnd)).toBe(1 + otherTexts.length);
  });

  it('never puts a claim link a stranger caused on a partner’s invoice', async () => {
    const partnerId = `sp-${randomUUID().slice(0, 8)}`;
    await createPartner(stack.sql, {
      id: partnerId,
      name: 'Policy Partner',
      kind: 'partner',
      liveIntakeApproved: true,
    });
    const { key } = await createApiKey(stack.sql, { name: partnerId, partnerId });
    const phone = testMobile();
    const job = {
      jobRef: `J-${randomUUID().slice(0, 8)}`,
      pickup: 'Hexham station',
      dropoff: 'Hexham',
      pickupTime: later(),
      passengerName: 'Ada Lovelace',
      passengerPhone: phone,
    };
    const sent = await stack.app.inject({
      method: 'POST',
      url: '/api/public/v1/jobs',
      remoteAddress: '198.51.100.40',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: JSON.stringify(job),
    });
    expect(sent.statusCode, sent.body).toBeLessThan(300);
    const ref = await eventually(
      async () => {
        const [row] = await stack.sql<{ ref: string }[]>`select ref from bookings where partner_id = ${partnerId}`;
        return row?.ref;
      },
      STACK_WAIT_MS,
      'the partner job booked',
    );
    const weekStart = new Date(Date.now() - 3600_000).toISOString();
    const weekEnd = new Date(Date.now() + 3600_000).toISOString();
    const before =
      (await partnersSmsInWeek(stack.sql, weekStart, weekEnd)).find((p) => p.partnerId === partnerId)?.smsCount ?? 0;

    // A stranger asks for the booking's claim link by its reference and phone.
    const claim = await stack.app.inject({
      method: 'POST',
      url: `/api/public/v1/booking/${ref}/claim`,
      remoteAddress: '198.51.100.41',
      payload: { passenger_phone: phone },
    });
    expect(claim.statusCode, claim.body).toBe(202);
    await eventually(async () =>
      (await stack.sql`select 1 from outbox where booking_ref = ${ref} and purpose = 'claim_link'`).length > 0
        ? true
        : undefined,
    );
    const after =
      (await partnersSmsInWeek(stack.sql, weekStart, weekEnd)).find((p) => p.partnerId === partnerId)?.smsCount ?? 0;
    expect(after).toBe(before);
  });
});
