import { randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSql, type Sql } from '../../src/db/sql.js';
import {
  createNotifier,
  DeliveringNotifier,
  DeliveryError,
  OutboxNotifier,
  SmtpTransport,
  TwilioTransport,
  type OutboundMessage,
  type TwilioTransportOptions,
} from '../../src/notify/index.js';
import { testDatabaseUrl } from '../support/shared-servers.js';

// Real Postgres (the shared test database) and real HTTP/SMTP conversations with local fakes of
// Twilio and an SMTP relay, so the wire format and the outbox ledger are both exercised.

let sql: Sql;
let twilio: FakeTwilio;
let smtp: FakeSmtp;

beforeAll(async () => {
  sql = createSql(testDatabaseUrl(), 8);
  twilio = await startFakeTwilio();
  smtp = await startFakeSmtp();
});
afterAll(async () => {
  await twilio?.close();
  await smtp?.close();
  await sql?.end();
});

const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'test-auth-token-never-logged';

function twilioOptions(): TwilioTransportOptions {
  return {
    accountSid: SID,
    authToken: TOKEN,
    smsFrom: '+447400123456',
    whatsappFrom: '+447400654321',
    baseUrl: twilio.url,
  };
}

function message(overrides: Partial<OutboundMessage> = {}): OutboundMessage {
  return {
    channel: 'sms',
    to: '+447911123456',
    body: 'Job DT-1234: Manchester Piccadilly to Manchester Airport, 14:30. Accept: https://example.test/j/1',
    idempotencyKey: `test:${randomUUID()}`,
    bookingRef: 'DT-1234',
    ...overrides,
  };
}

async function outboxRows(key: string) {
  return sql<
    {
      provider: string;
      provider_message_id: string | null;
      sent_at: Date | null;
      recipient: string;
      channel: string;
      body: string;
    }[]
  >`
    select provider, provider_message_id, sent_at, recipient, channel, body from outbox where idempotency_key = ${key}`;
}

async function rejection(p: Promise<unknown>): Promise<DeliveryError> {
  const err = await p.then(
    () => new Error('expected the send to fail'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DeliveryError);
  return err as DeliveryError;
}

describe('OutboxNotifier', () => {
  it('records a message once and reports the resend as a duplicate', async () => {
    const notifier = new OutboxNotifier({ sql });
    const msg = message({ channel: 'email', to: 'passenger@example.com', subject: 'Your booking DT-1234' });

    await expect(notifier.send(msg)).resolves.toEqual({
      provider: 'outbox',
      providerMessageId: null,
      duplicate: false,
    });
    await expect(notifier.send({ ...msg, body: 'changed on retry' })).resolves.toEqual({
      provider: 'outbox',
      providerMessageId: null,
      duplicate: true,
    });

    const rows = await outboxRows(msg.idempotencyKey);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      provider: 'outbox',
      channel: 'email',
      recipient: 'passenger@example.com',
      body: msg.body,
    });
    expect(rows[0]!.sent_at).toBeInstanceOf(Date);
  });

  it('is what createNotifier returns for kind outbox, needing no provider settings', () => {
    expect(createNotifier({ sql, kind: 'outbox' })).toBeInstanceOf(OutboxNotifier);
  });
});

describe('DeliveringNotifier with TwilioTransport', () => {
  it('posts the form Twilio expects with basic auth, records the SID, and delivers a repeated key once', async () => {
    twilio.respond(() => ({ status: 201, body: { sid: 'SM_first', status: 'queued' } }));
    const notifier = new DeliveringNotifier({ sql, transport: new TwilioTransport(twilioOptions()) });
    const msg = message();
    const before = twilio.requests.length;

    await expect(notifier.send(msg)).resolves.toEqual({
      provider: 'twilio',
      providerMessageId: 'SM_first',
      duplicate: false,
    });
    await expect(notifier.send(msg)).resolves.toEqual({
      provider: 'twilio',
      providerMessageId: 'SM_first',
      duplicate: true,
    });

    const received = twilio.requests.slice(before);
    expect(received).toHaveLength(1);
    const req = received[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`);
    expect(req.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
    expect(req.form).toEqual({ To: '+447911123456', From: '+447400123456', Body: msg.body });

    const [row] = await outboxRows(msg.idempotencyKey);
    expect(row).toMatchObject({ provider: 'twilio', provider_message_id: 'SM_first', channel: 'sms' });
    expect(row!.sent_at).toBeInstanceOf(Date);
  });

  it('sends WhatsApp with whatsapp: addresses on both ends', async () => {
    twilio.respond(() => ({ status: 201, body: { sid: 'SM_whatsapp' } }));
    const notifier = new DeliveringNotifier({ sql, transport: new TwilioTransport(twilioOptions()) });
    const before = twilio.requests.length;

    await notifier.send(message({ channel: 'whatsapp' }));

    expect(twilio.requests.slice(before).map((r) => [r.form.To, r.form.From])).toEqual([
      ['whatsapp:+447911123456', 'whatsapp:+447400654321'],
    ]);
  });

  it('delivers exactly once when concurrent attempts race on one key', async () => {
    twilio.respond(async () => {
      await new Promise((resolve) => setTimeout(resolve, 150));
      return { status: 201, body: { sid: 'SM_race' } };
    });
    const notifier = new DeliveringNotifier({ sql, transport: new TwilioTransport(twilioOptions()) });
    const msg = message();
    const before = twilio.requests.length;

    const results = await Promise.all(Array.from({ length: 5 }, () => notifier.send(msg)));

    expect(twilio.requests.length - before).toBe(1);
    expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
    expect(results.every((r) => r.providerMessageId === 'SM_race')).toBe(true);
  });

  it('turns a 400 (invalid number) into a non-retryable error naming the Twilio code, leaving the row unsent', async () => {
    twilio.respond(() => ({
      status: 400,
      body: {
        code: 21211,
        message: "The 'To' number +447911123456 is not a valid phone number.",
        more_info: 'https://www.twilio.com/docs/errors/21211',
        status: 400,
      },
    }));
    const notifier = new DeliveringNotifier({ sql, transport: new TwilioTransport(twilioOptions()) });
    const msg = message();

    const err = await rejection(notifier.send(msg));
    expect(err.nonRetryable).toBe(true);
    expect(err.status).toBe(400);
    expect(err.providerCode).toBe('21211');
    expect(err.message).toMatch(/HTTP 400 error 21211: The 'To' number/);
    expect(err.message).not.toContain(TOKEN);

    const [row] = await outboxRows(msg.idempotencyKey);
    expect(row).toMatchObject({ provider: 'twilio', sent_at: null, provider_message_id: null });
  });

  it('turns a 503 into a retryable error, and the retry then delivers', async () => {
    twilio.respond(() => ({ status: 503, body: { code: 20503, message: 'Service Unavailable', status: 503 } }));
    const notifier = new DeliveringNotifier({ sql, transport: new TwilioTransport(twilioOptions()) });
    const msg = message();

    const err = await rejection(notifier.send(msg));
    expect(err.nonRetryable).toBe(false);
    expect(err.status).toBe(503);

    twilio.respond(() => ({ status: 201, body: { sid: 'SM_after_retry' } }));
    await expect(notifier.send(msg)).resolves.toEqual({
      provider: 'twilio',
      providerMessageId: 'SM_after_retry',
      duplicate: false,
    });
    const [row] = await outboxRows(msg.idempotencyKey);
    expect(row).toMatchObject({ provider_message_id: 'SM_after_retry' });
    expect(row!.sent_at).toBeInstanceOf(Date);
  });

  it('resends a key whose earlier attempt was claimed but never marked sent (crash mid-send)', async () => {
    const msg = message();
    await sql`insert into outbox (idempotency_key, channel, recipient, body, provider) values (${msg.idempotencyKey}, 'sms', ${msg.to}, ${msg.body}, 'twilio')`;
    twilio.respond(() => ({ status: 201, body: { sid: 'SM_resent' } }));
    const notifier = new DeliveringNotifier({ sql, transport: new TwilioTransport(twilioOptions()) });

    await expect(notifier.send(msg)).resolves.toMatchObject({ providerMessageId: 'SM_resent', duplicate: false });
  });

  it('classifies each failure status: only 4xx that cannot change on retry are non-retryable', async () => {
    const transport = new TwilioTransport(twilioOptions());
    const cases: Array<[number, number, boolean]> = [
      [400, 21211, true],
      [404, 20404, true],
      [422, 21610, true],
      [400, 21611, false], // From number's queue is full: transient
      [401, 20003, false], // credentials an operator can fix
      [429, 20429, false],
      [500, 20500, false],
    ];
    for (const [status, code, nonRetryable] of cases) {
      twilio.respond(() => ({ status, body: { code, message: `failure ${code}`, status } }));
      const err = await rejection(transport.deliver(message()));
      expect([status, code, err.nonRetryable]).toEqual([status, code, nonRetryable]);
    }
  });

  it('treats an unreachable Twilio as retryable', async () => {
    const closedPort = await unusedPort();
    const transport = new TwilioTransport({ ...twilioOptions(), baseUrl: `http://127.0.0.1:${closedPort}` });
    const err = await rejection(transport.deliver(message()));
    expect(err.nonRetryable).toBe(false);
    expect(err.message).not.toContain(TOKEN);
  });

  it('refuses a channel the transport does not carry, without retrying', async () => {
    const notifier = new DeliveringNotifier({ sql, transport: new TwilioTransport(twilioOptions()) });
    const err = await rejection(notifier.send(message({ channel: 'email', to: 'a@example.com', subject: 's' })));
    expect(err.nonRetryable).toBe(true);
  });
});

describe('DeliveringNotifier with SmtpTransport', () => {
  const smtpOptions = () => ({
    host: '127.0.0.1',
    port: smtp.port,
    secure: false,
    from: '"Direct Taxi" <bookings@direct-taxi.test>',
  });

  it('sends a plain-text email through the relay once per key', async () => {
    smtp.rcptReply = '250 2.1.5 Ok';
    const transport = new SmtpTransport(smtpOptions());
    const notifier = new DeliveringNotifier({ sql, transport });
    const msg = message({
      channel: 'email',
      to: 'passenger@example.com',
      subject: 'Confirm your booking DT-1234',
      body: 'Open https://example.test/b/1 to confirm.',
    });
    const before = smtp.messages.length;

    const first = await notifier.send(msg);
    const second = await notifier.send(msg);
    transport.close();

    expect(first).toMatchObject({ provider: 'smtp', duplicate: false });
    expect(first.providerMessageId).toMatch(/^<.+@.+>$/);
    expect(second).toEqual({ ...first, duplicate: true });
    const sent = smtp.messages.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.from).toBe('<bookings@direct-taxi.test>');
    expect(sent[0]!.to).toEqual(['<passenger@example.com>']);
    expect(sent[0]!.data).toMatch(/^Subject: Confirm your booking DT-1234$/m);
    expect(sent[0]!.data).toMatch(/^Content-Type: text\/plain/m);
    expect(sent[0]!.data).toContain('Open https://example.test/b/1 to confirm.');
  });

  it('treats a 5xx reply (no such mailbox) as non-retryable and a 4xx reply as retryable', async () => {
    const transport = new SmtpTransport(smtpOptions());
    const email = message({ channel: 'email', to: 'nobody@example.com', subject: 'Hello' });

    smtp.rcptReply = '550 5.1.1 No such user';
    const permanent = await rejection(transport.deliver(email));
    expect([permanent.nonRetryable, permanent.status]).toEqual([true, 550]);

    smtp.rcptReply = '451 4.3.0 Try again later';
    const transient = await rejection(transport.deliver(email));
    expect([transient.nonRetryable, transient.status]).toEqual([false, 451]);
    smtp.rcptReply = '250 2.1.5 Ok';
    transport.close();
  });
});

describe('createNotifier live', () => {
  it('refuses to start without settings for every channel, naming what is missing', () => {
    expect(() => createNotifier({ sql, kind: 'live', twilio: twilioOptions() })).toThrow(
      /email \(SMTP\) needs host, port, from/,
    );
    expect(() =>
      createNotifier({ sql, kind: 'live', smtp: { host: 'h', port: 25, secure: false, from: 'a@b.test' } }),
    ).toThrow(/sms and whatsapp \(Twilio\) needs accountSid/);
    expect(() =>
      createNotifier({
        sql,
        kind: 'live',
        twilio: { ...twilioOptions(), whatsappFrom: '' },
        smtp: { host: 'h', port: 25, secure: false, from: 'a@b.test' },
      }),
    ).toThrow(/needs whatsappFrom/);
  });

  it('routes sms and whatsapp to Twilio and email to SMTP', async () => {
    twilio.respond(() => ({ status: 201, body: { sid: 'SM_routed' } }));
    smtp.rcptReply = '250 2.1.5 Ok';
    const notifier = createNotifier({
      sql,
      kind: 'live',
      twilio: twilioOptions(),
      smtp: { host: '127.0.0.1', port: smtp.port, secure: false, from: 'bookings@direct-taxi.test' },
    });
    const smsBefore = twilio.requests.length;
    const mailBefore = smtp.messages.length;

    const sms = await notifier.send(message({ channel: 'sms' }));
    const whatsapp = await notifier.send(message({ channel: 'whatsapp' }));
    const email = await notifier.send(message({ channel: 'email', to: 'p@example.com', subject: 'Booking' }));

    expect([sms.provider, whatsapp.provider, email.provider]).toEqual(['twilio', 'twilio', 'smtp']);
    expect(twilio.requests.length - smsBefore).toBe(2);
    expect(smtp.messages.length - mailBefore).toBe(1);
  });
});

// --- local fakes ---

interface FakeReply {
  status: number;
  body: unknown;
}
interface FakeTwilio {
  url: string;
  requests: Array<{ method: string; path: string; headers: http.IncomingHttpHeaders; form: Record<string, string> }>;
  respond(handler: () => FakeReply | Promise<FakeReply>): void;
  close(): Promise<void>;
}

async function startFakeTwilio(): Promise<FakeTwilio> {
  let handler: () => FakeReply | Promise<FakeReply> = () => ({ status: 500, body: { message: 'no handler' } });
  const requests: FakeTwilio['requests'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        form: Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))),
      });
      void Promise.resolve(handler()).then((reply) => {
        res.writeHead(reply.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(reply.body));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    respond: (h) => {
      handler = h;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface FakeSmtp {
  port: number;
  rcptReply: string;
  messages: Array<{ from: string; to: string[]; data: string }>;
  close(): Promise<void>;
}

/** Just enough ESMTP (no extensions, so no STARTTLS or AUTH) for nodemailer to hand over one message. */
async function startFakeSmtp(): Promise<FakeSmtp> {
  const fake: FakeSmtp = { port: 0, rcptReply: '250 2.1.5 Ok', messages: [], close: async () => {} };
  const server = net.createServer((socket) => {
    socket.setEncoding('utf8');
    const reply = (line: string) => socket.write(`${line}\r\n`);
    let buffered = '';
    let envelope = { from: '', to: [] as string[] };
    let data: string[] | null = null;
    reply('220 fake.smtp.test ESMTP');
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      for (let end = buffered.indexOf('\r\n'); end >= 0; end = buffered.indexOf('\r\n')) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        if (data) {
          if (line === '.') {
            fake.messages.push({ ...envelope, data: data.join('\n') });
            data = null;
            reply('250 2.0.0 Ok: queued');
          } else {
            data.push(line.startsWith('..') ? line.slice(1) : line);
          }
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') reply('250 fake.smtp.test');
        else if (verb === 'MAIL') {
          envelope = { from: line.replace(/^MAIL FROM:\s*/i, '').split(' ')[0]!, to: [] };
          reply('250 2.1.0 Ok');
        } else if (verb === 'RCPT') {
          envelope.to.push(line.replace(/^RCPT TO:\s*/i, '').split(' ')[0]!);
          reply(fake.rcptReply);
        } else if (verb === 'DATA') {
          data = [];
          reply('354 End data with <CR><LF>.<CR><LF>');
        } else if (verb === 'RSET') reply('250 2.0.0 Ok');
        else if (verb === 'QUIT') {
          reply('221 2.0.0 Bye');
          socket.end();
        } else reply('502 5.5.2 Command not recognised');
      }
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.port = (server.address() as AddressInfo).port;
  fake.close = () => new Promise((resolve) => server.close(() => resolve()));
  return fake;
}

async function unusedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
