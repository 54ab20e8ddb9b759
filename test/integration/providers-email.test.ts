import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { confirmUrl } from '../../src/bookings/confirm-link.js';
import { createSql, type Sql } from '../../src/db/sql.js';
import { sendBestEffort } from '../../src/notify/best-effort.js';
import { DeliveringNotifier, DeliveryError, SmtpTransport, type OutboundMessage } from '../../src/notify/index.js';
import {
  renderBookingConfirmationEmail,
  renderEmailVerificationCode,
  renderOpsCodeCeilingEmail,
  renderOpsInvoiceOverdueEmail,
  renderOpsMessageCeilingEmail,
  renderOpsNearPickupEmail,
  renderOpsNewRecipientCodesPausedEmail,
  renderOpsSuspendedOnBoardEmail,
  renderOpsUnassignedEmail,
  renderPassengerCancelledText,
  renderPassengerNoDriverFoundText,
  renderPassengerReceiptEmail,
  renderPassengerSignInCode,
  type BookingFacts,
  type DriverFacts,
} from '../../src/notify/templates.js';
import { temporalUiBookingUrl } from '../../src/ops/links.js';
import { startMailpit, type Mailpit, type MailpitMessage } from '../../dev/providers/mailpit.js';
import { testDatabaseUrl } from '../support/shared-servers.js';

// The SMTP adapter against Mailpit, an SMTP server its authors wrote (issue 39), rather than
// notify.test.ts's fake of ours: every email the service sends, rendered by the real templates,
// sent through the real SmtpTransport (and the outbox), then read back through Mailpit's API as a
// mail client would show it. The links in them point at a loopback server of this file's, which
// answers only the links the test expects, so Mailpit's link checker shows what a click reaches.

const FROM = { Name: 'Direct Taxi', Address: 'bookings@direct-taxi.test' };
const PASSENGER = 'zoe.bronte@example.com';
const OPS = 'ops@direct-taxi.test';

let mailpit: Mailpit;
let transport: SmtpTransport;
let links: LinkServer;
let sql: Sql;

beforeAll(async () => {
  sql = createSql(testDatabaseUrl(), 4);
  links = await startLinkServer();
  // Recipients outside the two domains are refused (550), as a relay refuses a mailbox it has not.
  // The first run on a fresh machine builds Mailpit (minutes, scripts/install-providers.sh): the
  // hook waits as long as the installer may take (dev/providers/servers.ts).
  mailpit = await startMailpit({ chaos: true, allowedRecipients: '@(example\\.com|direct-taxi\\.test)$' });
  transport = new SmtpTransport({
    host: '127.0.0.1',
    port: mailpit.smtpPort,
    secure: false,
    from: `"${FROM.Name}" <${FROM.Address}>`,
  });
}, 21 * 60_000);
afterAll(async () => {
  transport?.close();
  await mailpit?.stop();
  await links?.close();
  await sql?.end();
});

// The booking every passenger email is about: a name, an address and a fare in pounds that are not
// ASCII, so each arrives intact only if the charset and transfer encoding are right.
const place = (label: string, lat: number, lon: number, postcodeDistrict: string) => ({
  label,
  kind: 'address',
  lat,
  lon,
  postcodeDistrict,
  council: null,
});
const booking: BookingFacts & { passenger_email: string; created_at: Date } = {
  ref: 'TXZB44BR21',
  status: 'pending_driver',
  passenger_name: 'Zoë Brontë',
  passenger_phone: '+447911123456',
  passenger_email: PASSENGER,
  payment_method: 'card_to_driver',
  flight_number: null,
  meet_and_greet: false,
  notes: null,
  pickup: place('Flat 2, 221B Baker Street, London NW1 6XE', 51.5238, -0.1586, 'NW1'),
  dropoff: place('Heathrow Terminal 5, Wallis Road, Longford, Hounslow TW6 2GA', 51.4723, -0.4901, 'TW6'),
  pickup_at: new Date('2026-03-14T08:30:00Z'),
  passengers: 2,
  vehicle_type: 'saloon',
  wheelchair: false,
  fare_pence: 6850,
  created_at: new Date('2026-03-10T10:00:00Z'),
};
const driver: DriverFacts = {
  id: 'drv_7f3a',
  name: 'Siân Ó Dónaill',
  phone: '+447700900123',
  plate: 'PH 04417',
  vehicle_registration: 'AB12CDE',
  vehicle_description: null,
  vehicle_make: 'Toyota',
  vehicle_model: 'Prius',
  vehicle_colour: 'silver',
};

/** An email as the service sends it, and the links a recipient must be able to click in it. */
interface EmailCase {
  name: string;
  to: string;
  render: (base: string) => { subject: string; body: string; links: string[] };
}

const withLinks =
  (linksOf: (base: string) => string[], render: (base: string) => { subject: string; body: string }) =>
  (base: string) => ({ ...render(base), links: linksOf(base) });
const noLinks = (render: () => { subject: string; body: string }) => () => ({ ...render(), links: [] });
const confirmLink = (base: string) => confirmUrl(base, 'job-link-secret-for-tests', booking);
const trackLink = (base: string) => `${base}/track/${booking.ref}`;
const workflowLink = (base: string) =>
  temporalUiBookingUrl({ TEMPORAL_UI_URL: `${base}/temporal`, TEMPORAL_NAMESPACE: 'default' }, booking.ref);

// Every email in src/ and activities/ (each `channel: 'email'`), rendered as its sender renders it.
const EMAILS: EmailCase[] = [
  {
    name: 'booking confirmation, with its confirm-and-manage link (activities/bookings/notifications.ts)',
    to: PASSENGER,
    render: withLinks(
      (base) => [confirmLink(base), trackLink(base)],
      (base) => renderBookingConfirmationEmail(booking, trackLink(base), confirmLink(base)),
    ),
  },
  {
    name: 'booking confirmation of a booking held until its link is opened',
    to: PASSENGER,
    render: withLinks(
      (base) => [confirmLink(base), trackLink(base)],
      (base) => renderBookingConfirmationEmail(booking, trackLink(base), confirmLink(base), true),
    ),
  },
  {
    name: 'receipt',
    to: PASSENGER,
    render: noLinks(() =>
      renderPassengerReceiptEmail(booking, {
        rules: [
          { description: 'Tariff 1, first 1/5 mile', amountPence: 380 },
          { description: 'Heathrow drop-off charge', amountPence: 700 },
          { description: 'Waiting time', amountPence: 0 },
        ],
        basis: 'Transport for London table from 2025-04-05, weekday day',
        measured: { meters: 27_520, seconds: 2_940, route: 'osrm' },
        payment: {
          id: 4812,
          amountPence: 6850,
          method: 'card_to_driver',
          recordedAt: new Date('2026-03-14T09:21:00Z'),
        },
      }),
    ),
  },
  {
    // The subjects of these two are written in activities/bookings/notifications.ts and records.ts.
    name: 'no driver found',
    to: PASSENGER,
    render: noLinks(() => ({
      subject: `No driver for taxi ${booking.ref}`,
      body: renderPassengerNoDriverFoundText(booking),
    })),
  },
  {
    name: 'booking cancelled',
    to: PASSENGER,
    render: noLinks(() => ({
      subject: `Taxi ${booking.ref} cancelled`,
      body: renderPassengerCancelledText(booking, 'ops'),
    })),
  },
  { name: 'passenger sign-in code', to: PASSENGER, render: noLinks(() => renderPassengerSignInCode('402917', 10)) },
  { name: 'email verification code', to: PASSENGER, render: noLinks(() => renderEmailVerificationCode('118305', 30)) },
  {
    name: 'ops: sign-in codes near the day’s ceiling',
    to: OPS,
    render: noLinks(() => renderOpsCodeCeilingEmail({ channel: 'email', sent: 1600, ceiling: 2000, alertRatio: 0.8 })),
  },
  {
    name: 'ops: codes to new recipients paused',
    to: OPS,
    render: noLinks(() =>
      renderOpsNewRecipientCodesPausedEmail({ channel: 'sms', sent: 1000, ceiling: 2000, share: 0.5 }),
    ),
  },
  {
    name: 'ops: bookings messaged near the sending ceiling',
    to: OPS,
    render: noLinks(() =>
      renderOpsMessageCeilingEmail({
        channel: 'sms',
        sent: 4000,
        ceiling: 5000,
        alertRatio: 0.8,
        newRecipientShare: 0.6,
      }),
    ),
  },
  {
    // The one subject with a name in it, so the one where RFC 2047 encoding is needed.
    name: 'ops: overdue invoice',
    to: OPS,
    render: withLinks(
      (base) => [`${base}/api/ops/invoices?status=overdue`],
      (base) =>
        renderOpsInvoiceOverdueEmail(
          {
            who: driver.name,
            account: 'driver',
            accountId: driver.id,
            weekOf: '2 Mar 2026',
            totalPence: 1250,
            remindersSent: 2,
          },
          base,
        ),
    ),
  },
  {
    name: 'ops: no driver near pickup',
    to: OPS,
    render: withLinks(
      (base) => [`${base}/ops/bookings?ref=${booking.ref}`, workflowLink(base), trackLink(base)],
      (base) => renderOpsNearPickupEmail(booking, base, workflowLink(base)),
    ),
  },
  {
    name: 'ops: booking unassigned after a round',
    to: OPS,
    render: withLinks(
      (base) => [trackLink(base)],
      (base) => renderOpsUnassignedEmail(booking, 3, base),
    ),
  },
  {
    name: 'ops: suspended driver with a passenger on board',
    to: OPS,
    render: withLinks(
      (base) => [`${base}/api/ops/bookings/${booking.ref}/end`, `${base}/ops/bookings?ref=${booking.ref}`],
      (base) => renderOpsSuspendedOnBoardEmail(booking, driver, base),
    ),
  },
];

function email(to: string, rendered: { subject: string; body: string }): OutboundMessage {
  return {
    channel: 'email',
    to,
    subject: rendered.subject,
    body: rendered.body,
    idempotencyKey: `providers-email:${randomUUID()}`,
    bookingRef: booking.ref,
  };
}

/** The one message Mailpit holds with this Message-ID (as the adapter returns it, in angle brackets). */
async function received(providerMessageId: string | null): Promise<MailpitMessage> {
  expect(providerMessageId).toMatch(/^<[^<>@\s]+@direct-taxi\.test>$/);
  const found = await mailpit.search(`message-id:"${providerMessageId!.slice(1, -1)}"`);
  expect(found).toHaveLength(1);
  return mailpit.message(found[0]!.ID);
}

/** What a mail client shows as the body: the decoded plain-text part, with the line ends the sender wrote. */
const shownText = (m: MailpitMessage) => m.Text.replace(/\r\n/g, '\n').replace(/\n$/, '');

async function rejection(p: Promise<unknown>): Promise<DeliveryError> {
  const err = await p.then(
    () => new Error('expected the send to fail'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DeliveryError);
  return err as DeliveryError;
}

/**
 * The message as the adapter handed it over: the raw copy without the trace fields Mailpit puts on
 * top (Return-Path, and Received, which names this machine and so varies in length).
 */
function asSent(raw: string): string {
  let rest = raw;
  while (TRACE_FIELD.test(rest)) rest = rest.replace(TRACE_FIELD, '');
  return rest;
}
const TRACE_FIELD = /^(?:Return-Path|Received):.*\r\n(?:[ \t].*\r\n)*/i;

/** Every http(s) link in a text, as a client that links URLs up to the next space finds them. */
const linksIn = (text: string) => text.match(/https?:\/\/\S+/g) ?? [];

describe('every email the service sends, as its recipient reads it in Mailpit', () => {
  beforeEach(() => links.reset());

  it.each(EMAILS)('$name', async ({ to, render }) => {
    const rendered = render(links.base);
    links.expect(rendered.links);
    const sentFrom = Math.floor(Date.now() / 1000) * 1000;

    const { providerMessageId } = await transport.deliver(email(to, rendered));

    const sentBy = Date.now();
    const m = await received(providerMessageId);
    expect(m.From).toEqual(FROM);
    expect(m.To).toEqual([{ Name: '', Address: to }]);
    expect([m.Cc, m.Bcc]).toEqual([[], []]);
    // Bounces go back to the sender's own address.
    expect(m.ReturnPath).toBe(FROM.Address);
    expect(m.Subject).toBe(rendered.subject);
    expect(new Date(m.Date).getTime()).toBeGreaterThanOrEqual(sentFrom);
    expect(new Date(m.Date).getTime()).toBeLessThanOrEqual(sentBy);

    // One plain-text part and nothing else, reading exactly as the template wrote it.
    expect(shownText(m)).toBe(rendered.body);
    expect([m.HTML, m.Attachments, m.Inline]).toEqual(['', [], []]);
    // Every link a client finds is one the template meant, whole: not cut where a line was folded.
    expect(linksIn(shownText(m))).toEqual(linksIn(rendered.body));
    expect(new Set(linksIn(shownText(m)))).toEqual(new Set(rendered.links));

    const headers = await mailpit.headers(m.ID);
    expect(headers['Mime-Version']).toEqual(['1.0']);
    expect(headers['Auto-Submitted']).toEqual(['auto-generated']);
    expect(headers['Content-Type']).toEqual(['text/plain; charset=utf-8']);
    expect(headers['Message-Id']).toEqual([providerMessageId]);
    expect(headers['Date']![0]).toMatch(
      /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} [+-]\d{4}$/,
    );
    expect(['7bit', 'quoted-printable', 'base64']).toContain(headers['Content-Transfer-Encoding']![0]);

    // On the wire, as the adapter wrote it: printable ASCII only, so a relay without 8BITMIME
    // passes it on unchanged, and no line longer than RFC 5322's 78 characters, which some relays
    // fold or cut.
    const sent = asSent(await mailpit.raw(m.ID));
    expect(sent).toMatch(/^[\t\r\n -~]*$/);
    expect(Math.max(...sent.split('\r\n').map((line) => line.length))).toBeLessThanOrEqual(78);
    // A subject that is not ASCII travels as RFC 2047 encoded words (decoded above).
    if (/[^ -~]/.test(rendered.subject)) expect(sent).toMatch(/^Subject: =\?UTF-8\?[QB]\?/im);

    // What a click reaches: Mailpit requests each link it found, and the link server answers 200
    // only to the exact path and query a template wrote (the confirm link's token included).
    if (rendered.links.length > 0) {
      const check = await mailpit.linkCheck(m.ID);
      expect(check.Links.map((l) => [l.URL, l.StatusCode]).sort()).toEqual(
        [...new Set(rendered.links)].map((l) => [l, 200]).sort(),
      );
      expect(check.Errors).toBe(0);
    }
  });

  it('carries a passenger’s name, address and fare in pounds intact, and the confirm link whole', async () => {
    const link = confirmLink(links.base);
    // Longer than a quoted-printable line (76), so the wire folds it; the reader must not see that.
    expect(link.length).toBeGreaterThan(76);
    const rendered = renderBookingConfirmationEmail(booking, trackLink(links.base), link);

    const m = await received((await transport.deliver(email(PASSENGER, rendered))).providerMessageId);

    const lines = shownText(m).split('\n');
    expect(lines[0]).toBe('Hello Zoë Brontë,');
    expect(lines).toContain(
      'Your taxi TXZB44BR21: Sat 14 Mar 08:30 from Flat 2, 221B Baker Street, London NW1 6XE to Heathrow Terminal 5, Wallis Road, Longford, Hounslow TW6 2GA.',
    );
    expect(lines).toContain('Fare £68.50, paid to the driver (card to driver).');
    // The link alone on its line, so no client runs it into the words around it.
    expect(lines).toContain(link);
  });

  it('encodes a subject with a name in it per RFC 2047 and Mailpit decodes it back', async () => {
    const rendered = renderOpsInvoiceOverdueEmail(
      {
        who: 'Zoë Brontë',
        account: 'driver',
        accountId: 'drv_1',
        weekOf: '2 Mar 2026',
        totalPence: 1250,
        remindersSent: 2,
      },
      links.base,
    );

    const m = await received((await transport.deliver(email(OPS, rendered))).providerMessageId);

    expect(m.Subject).toBe('Overdue invoice: Zoë Brontë, week of 2 Mar 2026');
    const [subject] = (await mailpit.headers(m.ID))['Subject']!;
    expect(subject).not.toContain('Zoë');
    expect(subject).toMatch(/^=\?UTF-8\?[QB]\?\S+\?=( =\?UTF-8\?[QB]\?\S+\?=)*$/i);
  });

  it('keeps a name with a line break in it inside the subject: it adds no header and no recipient', async () => {
    const rendered = renderOpsInvoiceOverdueEmail(
      {
        who: 'Zoë Brontë\r\nBcc: someone@example.com',
        account: 'partner',
        accountId: 'ptn_1',
        weekOf: '2 Mar 2026',
        totalPence: 1250,
        remindersSent: 2,
      },
      links.base,
    );

    const m = await received((await transport.deliver(email(OPS, rendered))).providerMessageId);

    expect(m.To).toEqual([{ Name: '', Address: OPS }]);
    expect([m.Cc, m.Bcc]).toEqual([[], []]);
    expect(m.Subject).toBe('Overdue invoice: Zoë Brontë Bcc: someone@example.com, week of 2 Mar 2026');
    expect(Object.keys(await mailpit.headers(m.ID))).not.toContain('Bcc');
  });
});

describe('through the outbox (DeliveringNotifier) to Mailpit', () => {
  async function outboxRow(key: string) {
    const [row] = await sql<
      {
        provider: string;
        provider_message_id: string | null;
        sent_at: Date | null;
        recipient: string;
        subject: string | null;
        body: string;
        attempts: number;
        last_error_status: number | null;
        refused_at: Date | null;
      }[]
    >`select provider, provider_message_id, sent_at, recipient, subject, body, attempts, last_error_status, refused_at
        from outbox where idempotency_key = ${key}`;
    return row;
  }

  it('delivers a booking confirmation once per key and records the Message-ID Mailpit received', async () => {
    const notifier = new DeliveringNotifier({ sql, transport });
    const msg = email(
      PASSENGER,
      renderBookingConfirmationEmail(booking, trackLink(links.base), confirmLink(links.base)),
    );

    const first = await notifier.send(msg);
    const again = await notifier.send(msg);

    expect(first).toMatchObject({ provider: 'smtp', duplicate: false });
    expect(again).toEqual({ ...first, duplicate: true });
    // received() finds exactly one message with that Message-ID: the repeat sent nothing.
    const m = await received(first.providerMessageId);
    const row = await outboxRow(msg.idempotencyKey);
    // The ledger's provider_message_id is the Message-ID header the passenger's copy carries, so
    // a complaint ("I never got it") can be matched to the relay's own log.
    expect(row).toMatchObject({
      provider: 'smtp',
      provider_message_id: `<${m.MessageID}>`,
      recipient: PASSENGER,
      subject: m.Subject,
      body: shownText(m),
    });
    expect(row!.sent_at).toBeInstanceOf(Date);
  });

  it('turns a refused recipient (550) into a non-retryable error, leaves the row unsent, and the booking carries on', async () => {
    const notifier = new DeliveringNotifier({ sql, transport });
    const msg = email('zoe@refused-mailbox.test', renderPassengerSignInCode('402917', 10));
    const before = await mailpit.smtpStats();

    const err = await rejection(notifier.send(msg));

    expect([err.provider, err.nonRetryable, err.status]).toEqual(['smtp', true, 550]);
    expect(err.message).toMatch(/^SMTP send failed \(550\): .*mailbox unavailable/);
    expect(await outboxRow(msg.idempotencyKey)).toMatchObject({
      provider: 'smtp',
      recipient: 'zoe@refused-mailbox.test',
      sent_at: null,
      provider_message_id: null,
      // What the relay said, kept for support: refused for good.
      attempts: 1,
      last_error_status: 550,
      refused_at: expect.any(Date),
    });
    expect(await mailpit.search('to:"zoe@refused-mailbox.test"')).toEqual([]);
    expect((await mailpit.smtpStats()).rejected).toBe(before.rejected + 1);

    // The activities send such emails best effort: a permanent refusal is logged, not retried.
    const warnings: string[] = [];
    await sendBestEffort(notifier, msg, (message) => warnings.push(message));
    expect(warnings).toEqual(['message undeliverable; booking continues']);
  });

  it('turns a transient refusal (451) into a retryable error, and the retry delivers once', async () => {
    const notifier = new DeliveringNotifier({ sql, transport });
    const msg = email(PASSENGER, renderEmailVerificationCode('118305', 30));
    await mailpit.chaos({ Recipient: { ErrorCode: 451, Probability: 100 } });

    let err: DeliveryError;
    try {
      err = await rejection(notifier.send(msg));
    } finally {
      await mailpit.chaos({ Recipient: { ErrorCode: 451, Probability: 0 } });
    }

    expect([err.nonRetryable, err.status]).toEqual([false, 451]);
    expect(await outboxRow(msg.idempotencyKey)).toMatchObject({
      sent_at: null,
      provider_message_id: null,
      last_error_status: 451,
      refused_at: null,
    });
    // The activity's retry: the same key, now accepted.
    const retried = await notifier.send(msg);
    expect(retried.duplicate).toBe(false);
    const m = await received(retried.providerMessageId);
    expect(shownText(m)).toBe(msg.body);
    expect(await outboxRow(msg.idempotencyKey)).toMatchObject({ provider_message_id: `<${m.MessageID}>`, attempts: 2 });
  });
});

describe('a relay that requires SMTP AUTH (Mailpit with an auth file)', () => {
  const user = 'direct-taxi-relay';
  const pass = 'relay-password-never-logged';
  let relay: Mailpit;
  beforeAll(async () => {
    relay = await startMailpit({ auth: { user, pass } });
  }, 21 * 60_000);
  afterAll(() => relay?.stop());

  const send = async (creds: { user?: string; pass?: string }) => {
    const t = new SmtpTransport({
      host: '127.0.0.1',
      port: relay.smtpPort,
      secure: false,
      from: FROM.Address,
      ...creds,
    });
    try {
      return await t.deliver(email(PASSENGER, renderPassengerSignInCode('402917', 10)));
    } finally {
      t.close();
    }
  };
  it('refuses us without credentials (530) or with the wrong ones (535): retryable, for an operator to fix', async () => {
    const anonymous = await rejection(send({}));
    const wrong = await rejection(send({ user, pass: 'an-old-password' }));

    expect([anonymous.status, anonymous.nonRetryable]).toEqual([530, false]);
    expect([wrong.status, wrong.nonRetryable]).toEqual([535, false]);
    expect(wrong.message).not.toContain('an-old-password');
    expect(await relay.messages()).toEqual([]);
  });

  it('delivers once logged in, and Mailpit records who sent it', async () => {
    const { providerMessageId } = await send({ user, pass });

    const [m] = await relay.messages();
    expect(m).toMatchObject({ MessageID: providerMessageId!.slice(1, -1), Username: user });
  });
});

// --- the links' far end ---

interface LinkServer {
  base: string;
  /** The links (full URLs) the next message may contain; any other path is a 404. */
  expect(urls: string[]): void;
  reset(): void;
  close(): Promise<void>;
}

/**
 * Where the emails' links lead: a loopback server answering 200 only to the exact paths and
 * queries expected. The base has a path of its own, as a deployment behind a proxy would, which
 * also makes the confirm link longer than a quoted-printable line.
 */
async function startLinkServer(): Promise<LinkServer> {
  let expected = new Set<string>();
  const server = http.createServer((req, res) => {
    res.writeHead(expected.has(req.url ?? '') ? 200 : 404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base: `${origin}/direct-taxi`,
    expect: (urls) => {
      expected = new Set(urls.map((u) => u.slice(origin.length)));
    },
    reset: () => {
      expected = new Set();
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
