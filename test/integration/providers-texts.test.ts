// Issue 39, item 3: the Twilio adapter against Twilio's own description of its Messages API, not a
// fake of ours. Prism validates every request the real TwilioTransport makes against an excerpt of
// Twilio's published OpenAPI document and answers with the document's examples; Twilio's test
// credentials' magic To numbers get their documented errors (dev/providers/twilio.ts).
// Through the real DeliveringNotifier and the outbox in the shared test Postgres, as production
// sends every job card and passenger text.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql, type Sql } from '../../src/db/sql.js';
import {
  DeliveringNotifier,
  DeliveryError,
  TwilioTransport,
  type Channel,
  type OutboundMessage,
  type TwilioTransportOptions,
} from '../../src/notify/index.js';
import { renderJobCardText, renderPassengerBookedText, type BookingFacts } from '../../src/notify/templates.js';
import { normalisePhone } from '../../src/passengers/phone.js';
import { startTwilioMock, type TwilioExchange, type TwilioMock } from '../../dev/providers/twilio.js';
import { testDatabaseUrl } from '../support/shared-servers.js';

// Shaped as Twilio's are (AC and 32 hex digits): the document's path parameter demands it.
const ACCOUNT_SID = 'AC5ef8732a3c49700934481addd5ce1659';
const AUTH_TOKEN = 'prism-test-auth-token';
const SMS_FROM = '+447480781234';
const WHATSAPP_FROM = '+447480785678';
// The sid of the example Twilio's document gives for a created message, which Prism answers.
const DOCUMENTED_SID = 'SMaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';

let sql: Sql;
let twilio: TwilioMock;
beforeAll(async () => {
  sql = createSql(testDatabaseUrl(), 4);
  twilio = await startTwilioMock();
});
afterAll(async () => {
  await twilio?.stop();
  await sql?.end();
});

function notifier(opts: Partial<TwilioTransportOptions> = {}): DeliveringNotifier {
  const transport = new TwilioTransport({
    accountSid: ACCOUNT_SID,
    authToken: AUTH_TOKEN,
    smsFrom: SMS_FROM,
    whatsappFrom: WHATSAPP_FROM,
    baseUrl: twilio.url,
    ...opts,
  });
  return new DeliveringNotifier({ sql, transport });
}

// A ref no booking has: withheldForSandbox finds no sandbox booking, so the text is delivered.
const ref = () => `TX${randomUUID().slice(0, 8).toUpperCase()}`;
const booking = (over: Partial<BookingFacts> = {}): BookingFacts => ({
  ref: ref(),
  status: 'offered',
  passenger_name: 'Ada Lovelace',
  passenger_phone: '+447400555321',
  payment_method: 'cash',
  flight_number: null,
  meet_and_greet: false,
  notes: 'Two suitcases',
  pickup: {
    label: 'Manchester Piccadilly',
    kind: 'station',
    lat: 53.4774,
    lon: -2.2309,
    postcodeDistrict: 'M1',
    council: 'Manchester',
  },
  dropoff: {
    label: 'Manchester Airport T2',
    kind: 'airport',
    lat: 53.3652,
    lon: -2.2727,
    postcodeDistrict: 'M90',
    council: 'Manchester',
  },
  pickup_at: new Date('2030-03-14T14:30:00Z'),
  passengers: 2,
  vehicle_type: 'saloon',
  wheelchair: false,
  fare_pence: 3250,
  ...over,
});

/** A phone as a passenger or driver types it, stored as the service stores it. */
function typedPhone(input: string): string {
  const read = normalisePhone(input);
  if (!read.ok) throw new Error(read.reason);
  return read.e164;
}

function text(over: Partial<OutboundMessage> & Pick<OutboundMessage, 'to' | 'body'>): OutboundMessage {
  return { channel: 'sms', idempotencyKey: `providers-texts:${randomUUID()}`, bookingRef: ref(), ...over };
}

async function outboxRow(key: string) {
  const [row] = await sql<
    {
      channel: string;
      recipient: string;
      body: string;
      provider: string;
      provider_message_id: string | null;
      sent_at: Date | null;
      booking_ref: string | null;
      attempts: number;
      last_error_status: number | null;
      last_error_code: string | null;
      last_error: string | null;
      refused_at: Date | null;
    }[]
  >`select channel, recipient, body, provider, provider_message_id, sent_at, booking_ref,
           attempts, last_error_status, last_error_code, last_error, refused_at
    from outbox where idempotency_key = ${key}`;
  return row;
}

/** The one exchange the front saw from `before` on: what Prism was asked and what it said. */
function onlyExchangeSince(before: number): TwilioExchange {
  const seen = twilio.requests().slice(before);
  expect(seen).toHaveLength(1);
  return seen[0]!;
}

async function rejection(p: Promise<unknown>): Promise<DeliveryError> {
  const err = await p.then(
    () => new Error('expected Twilio to refuse the message'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DeliveryError);
  return err as DeliveryError;
}

describe("texts Twilio's document accepts", () => {
  it('sends a driver their job card by SMS to the number they typed, and records Twilio’s sid', async () => {
    const to = typedPhone('07400 555321');
    expect(to).toBe('+447400555321');
    const b = booking();
    const msg = text({ to, body: renderJobCardText(b, 'https://direct.example/j/abc'), bookingRef: b.ref });
    const before = twilio.requests().length;

    await expect(notifier().send(msg)).resolves.toEqual({
      provider: 'twilio',
      providerMessageId: DOCUMENTED_SID,
      duplicate: false,
    });

    const sent = onlyExchangeSince(before);
    expect(sent.violations).toEqual([]);
    expect(sent.status).toBe(201);
    expect(sent.path).toBe(`/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`);
    // The card's lines and its pound sign reach Twilio as written.
    expect(sent.form).toEqual({ To: '+447400555321', From: SMS_FROM, Body: msg.body });
    expect(sent.form.Body).toContain('Fare £32.50');
    expect(sent.form.Body?.split('\n').length).toBeGreaterThan(4);
    const row = await outboxRow(msg.idempotencyKey);
    expect(row).toMatchObject({
      provider: 'twilio',
      provider_message_id: DOCUMENTED_SID,
      recipient: to,
      attempts: 1,
      last_error: null,
    });
    expect(row!.sent_at).toBeInstanceOf(Date);
  });

  it('sends a passenger their booking by WhatsApp, from and to whatsapp: addresses', async () => {
    const b = booking();
    const to = typedPhone('+44 (0)7400 555322');
    const msg = text({
      channel: 'whatsapp',
      to,
      body: renderPassengerBookedText(b, 'https://direct.example/t/xyz'),
      bookingRef: b.ref,
    });
    const before = twilio.requests().length;

    const result = await notifier().send(msg);

    expect(result.providerMessageId).toBe(DOCUMENTED_SID);
    const sent = onlyExchangeSince(before);
    expect(sent.violations).toEqual([]);
    expect(sent.status).toBe(201);
    expect([sent.form.To, sent.form.From]).toEqual(['whatsapp:+447400555322', `whatsapp:${WHATSAPP_FROM}`]);
    expect(sent.form.Body).toBe(msg.body);
    expect((await outboxRow(msg.idempotencyKey))?.sent_at).toBeInstanceOf(Date);
  });
});

describe('texts Twilio refuses', () => {
  // Twilio's test credentials' magic numbers (and two of ours, marked), each with the error Twilio
  // answers it with, and whether sending the same text again could ever help.
  const refusals: { to: string; what: string; status: number; code: string; retry: boolean; channel?: Channel }[] = [
    { to: '+15005550001', what: 'an invalid number', status: 400, code: '21211', retry: false },
    { to: '+15005550002', what: 'a number Twilio cannot route to', status: 400, code: '21612', retry: false },
    { to: '+15005550003', what: 'a region the account may not text', status: 400, code: '21408', retry: false },
    { to: '+15005550004', what: 'a recipient who replied STOP', status: 400, code: '21610', retry: false },
    {
      to: '+15005550004',
      what: 'a WhatsApp recipient who opted out',
      status: 400,
      code: '21610',
      retry: false,
      channel: 'whatsapp',
    },
    { to: '+15005550009', what: 'a landline (not a mobile)', status: 400, code: '21614', retry: false },
    { to: '+15005550429', what: 'rate limiting (ours)', status: 429, code: '20429', retry: true },
    { to: '+15005550611', what: 'a full queue on our From number (ours)', status: 400, code: '21611', retry: true },
  ];

  it.each(refusals)(
    '$what: Twilio error $code, retryable $retry, row left unsent',
    async ({ to, status, code, retry, channel = 'sms' }) => {
      const msg = text({ channel, to, body: 'Direct Taxi: your driver is on the way.' });
      const before = twilio.requests().length;

      const err = await rejection(notifier().send(msg));

      // Prism accepted the request as well formed and answered Twilio's documented error for it.
      const sent = onlyExchangeSince(before);
      expect(sent.violations).toEqual([]);
      expect(sent.prefer).not.toBeNull();
      expect(err).toMatchObject({ provider: 'twilio', status, providerCode: code, nonRetryable: !retry });
      expect(err.message).toContain(`HTTP ${status} error ${code}`);
      expect(err.message).not.toContain(AUTH_TOKEN);
      // What the outbox shows support: the text, to whom, by which provider, that it never went,
      // and what Twilio said: its status and code, and whether it is refused for good.
      const row = await outboxRow(msg.idempotencyKey);
      expect(row).toMatchObject({
        channel,
        recipient: to,
        body: msg.body,
        provider: 'twilio',
        provider_message_id: null,
        sent_at: null,
        booking_ref: msg.bookingRef,
        attempts: 1,
        last_error_status: status,
        last_error_code: code,
        last_error: err.message,
      });
      expect(row!.refused_at === null).toBe(retry);
      expect(row!.last_error).not.toContain(AUTH_TOKEN);
    },
  );

  it('a rate-limited text is asked for again on retry, and the ledger keeps one unsent row', async () => {
    // The activity retries a retryable DeliveryError with the same idempotency key.
    const msg = text({ to: '+15005550429', body: 'Direct Taxi: your driver is on the way.' });
    const before = twilio.requests().length;
    const sender = notifier();

    for (let attempt = 0; attempt < 2; attempt++) {
      expect((await rejection(sender.send(msg))).nonRetryable).toBe(false);
    }

    expect(
      twilio
        .requests()
        .slice(before)
        .map((r) => [r.form.To, r.status]),
    ).toEqual([
      ['+15005550429', 429],
      ['+15005550429', 429],
    ]);
    const rows =
      await sql`select sent_at, attempts, last_error_code, refused_at from outbox where idempotency_key = ${msg.idempotencyKey}`;
    expect(rows).toEqual([{ sent_at: null, attempts: 2, last_error_code: '20429', refused_at: null }]);
  });
});

describe('requests Twilio’s document does not allow are refused by Prism', () => {
  it('an API key sid configured as the account sid: refused by Prism, row left unsent', async () => {
    // A Twilio API key sid (SK...) where the account sid (AC...) belongs: an easy mistake in settings.
    const msg = text({ to: typedPhone('07400 555323'), body: 'Direct Taxi: your driver is on the way.' });
    const before = twilio.requests().length;

    const err = await rejection(notifier({ accountSid: 'SK5ef8732a3c49700934481addd5ce1659' }).send(msg));

    const sent = onlyExchangeSince(before);
    expect(sent.path).toBe('/2010-04-01/Accounts/SK5ef8732a3c49700934481addd5ce1659/Messages.json');
    expect(sent.violations).toEqual(['Request path parameter accountsid must match pattern "^AC[0-9a-fA-F]{32}$"']);
    // 422 is Prism's refusal (dev/providers/twilio/README.md), a status Twilio never sends:
    // so no Twilio error code, and the reason is in Prism's violations above.
    expect(err).toMatchObject({ provider: 'twilio', status: 422, providerCode: null });
    expect(await outboxRow(msg.idempotencyKey)).toMatchObject({ sent_at: null, provider_message_id: null });
  });

  // Requests the adapter never makes, sent by hand through the same front, to show the mock is no
  // pushover: each shape is one Twilio's document forbids, and Prism (not the front) says so.
  const form = { To: '+447400555321', From: SMS_FROM, Body: 'Direct Taxi: hello' };
  const basic = `Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString('base64')}`;
  const refused: { what: string; body: Record<string, string>; auth: string | null; status: number; why: string }[] = [
    {
      what: 'without To',
      body: { From: form.From, Body: form.Body },
      auth: basic,
      status: 422,
      why: "required property 'To'",
    },
    {
      what: 'without From',
      body: { To: form.To, Body: form.Body },
      auth: basic,
      status: 422,
      why: "required property 'From'",
    },
    {
      what: 'without Body',
      body: { To: form.To, From: form.From },
      auth: basic,
      status: 422,
      why: "required property 'Body'",
    },
    { what: 'without credentials', body: form, auth: null, status: 401, why: 'Invalid security scheme used' },
    { what: 'with a bearer token', body: form, auth: 'Bearer abc', status: 401, why: 'Invalid security scheme used' },
  ];
  it.each(refused)('a message $what', async ({ body, auth, status, why }) => {
    const before = twilio.requests().length;

    const res = await fetch(`${twilio.url}/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(auth ? { authorization: auth } : {}) },
      body: new URLSearchParams(body),
    });

    expect(res.status).toBe(status);
    expect(res.headers.get('sl-violations')).toContain(why);
    const sent = onlyExchangeSince(before);
    expect(sent.prefer).toBeNull();
    expect(sent.violations.some((v) => v.includes(why))).toBe(true);
  });

  it('a message sent as JSON rather than a form', async () => {
    const res = await fetch(`${twilio.url}/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basic },
      body: JSON.stringify(form),
    });

    expect(res.status).toBe(422);
    expect(res.headers.get('sl-violations')).toContain('Supported content types: application/x-www-form-urlencoded');
  });
});
