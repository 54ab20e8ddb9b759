// Issue 20 (6), through HTTP on the real stack: a driver application and its documents are bounded
// in count and size (413 by Content-Length before the body is read), uploads in flight are capped
// per process and per address (IPv6 by /64), a body that does not arrive in time is cut off, and
// the hourly allowances are per applicant first, then per address, so one person cannot use up an
// office's. Issue 33 (8): a slot is taken only once a body's bytes arrive and kept only while they
// keep coming, so connections that declare 16 MB and send nothing (or a trickle) hold none; a body
// that finds the slots full waits for one before any 503. Raw sockets (node:net) on a listening
// server from several loopback addresses (127.0.0.x), so each connection is its own address.
import net from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../dev/free-port.js';
import { buildApp } from '../../src/app.js';
import type { Config } from '../../src/config.js';
import { APPLICATION_BODY_LIMIT, MAX_DOCUMENT_BYTES } from '../../src/drivers/application-limits.js';
import { eventually, STACK_WAIT_MS, startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({
    APPLICATION_UPLOADS_IN_FLIGHT: '2',
    APPLICATIONS_PER_PHONE_PER_HOUR: '2',
    APPLICATIONS_PER_ADDRESS_PER_HOUR: '4',
    APPLICATION_RATE_LIMIT_PER_HOUR: '8',
  });
});
afterAll(async () => stack?.close());

let n = 0;
const ip = () => `10.98.${Math.floor(n / 250) % 250}.${n++ % 250}`;
let phoneN = Math.floor(Math.random() * 50_000);
const driverPhone = () => `+4474007${String(10000 + (phoneN++ % 89999)).padStart(5, '0')}`;
const URL = '/api/drivers/applications';

/** A PDF of exactly `bytes` bytes, as base64 (the signature is all the service reads of it). */
const pdf = (bytes: number) => {
  const data = Buffer.alloc(bytes, 0x20);
  data.write('%PDF-1.4\n');
  return data.toString('base64');
};
const SMALL = pdf(64);

function application(
  phone: string,
  documents: Array<{ kind: string; data: string }> = [
    { kind: 'driver_licence', data: SMALL },
    { kind: 'vehicle_licence', data: SMALL },
  ],
) {
  return {
    name: 'Lee Applicant',
    phone,
    email: 'lee@example.com',
    licensing_authority: 'Leeds City Council',
    driver_licence_number: 'LCC-D-42',
    driver_licence_expires: '2030-01-31',
    vehicle_licence_number: 'LCC-V-42',
    vehicle_licence_expires: '2029-06-30',
    vehicle_make: 'Toyota',
    vehicle_model: 'Prius',
    vehicle_registration: 'yx70 abc',
    vehicle_type: 'saloon',
    seats: 4,
    tier: 'local',
    home_area: 'leeds',
    documents: documents.map((d) => ({ kind: d.kind, content_type: 'application/pdf', data_base64: d.data })),
  };
}

const post = (address: string, body: unknown) =>
  stack.app.inject({
    method: 'POST',
    url: URL,
    remoteAddress: address,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });

/** An upload whose body the test feeds by hand: it holds its slot until the body ends. */
function upload(address: string, contentLength: number) {
  const body = new PassThrough();
  const reply = stack.app.inject({
    method: 'POST',
    url: URL,
    remoteAddress: address,
    payload: body,
    headers: { 'content-type': 'application/json', 'content-length': String(contentLength) },
  });
  return { body, reply };
}

/** The ceiling's counter is taken right after the slot, both before the body: seen, the slot is held. */
const counted = (address: string) =>
  eventually(
    async () => {
      const [row] = await stack.sql<
        { hits: number }[]
      >`select hits from rate_limit_counters where key = ${`application:ip:${address}`}`;
      return row ? row.hits : undefined;
    },
    STACK_WAIT_MS,
    `the application counter of ${address}`,
  );

/** An API process of its own with these settings, listening on loopback, whose log lines the test can wait for. */
async function server(settings: Partial<Config>) {
  const lines: Array<{ msg?: string; reqId?: string; [k: string]: unknown }> = [];
  const app = await buildApp({
    config: { ...stack.config, ...settings },
    sql: stack.sql,
    temporal: stack.client,
    logger: { level: 'debug', stream: { write: (line: string) => void lines.push(JSON.parse(line)) } },
  });
  const port = await freePort();
  await app.listen({ port, host: '127.0.0.1' });
  return {
    app,
    port,
    lines,
    /** How many uploads have been given a slot so far, once there are at least `count`. */
    slotsTaken: (count: number) =>
      eventually(
        async () => {
          const taken = lines.filter((l) => l.msg === 'upload slot taken');
          return taken.length >= count ? taken : undefined;
        },
        STACK_WAIT_MS,
        `${count} upload slots taken`,
      ),
    close: () => app.close(),
  };
}

/**
 * A POST of the application route on a raw socket from `from` (a loopback address: its own
 * address to the server): the headers declaring `contentLength`, then `first` of the body.
 * `answer` is everything the server sent once it closed the connection.
 */
function rawPost(port: number, from: string, contentLength: number, first = '') {
  const socket = net.connect({ port, host: '127.0.0.1', localAddress: from });
  let text = '';
  socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
  socket.on('error', () => {});
  const answer = new Promise<{ status: number; text: string }>((resolve) =>
    socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text })),
  );
  socket.write(
    `POST ${URL} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${contentLength}\r\n\r\n${first}`,
  );
  return { socket, answer };
}

/** A whole application on a raw socket from `from`. */
function rawApplication(port: number, from: string) {
  const body = JSON.stringify(application(driverPhone()));
  return rawPost(port, from, Buffer.byteLength(body), body);
}

describe('driver applications, bounded', () => {
  it('refuses a body over the limit by its Content-Length, before reading any of it, taking a slot or spending any allowance', async () => {
    const from = ip();
    const { body, reply } = upload(from, APPLICATION_BODY_LIMIT + 1);
    // Not a byte of the body was sent: the answer can only have come from the header.
    const res = await reply;
    body.destroy();
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ status: 413, code: 'payload_too_large' });
    expect(res.headers.connection).toBe('close');
    expect(await stack.sql`select 1 from rate_limit_counters where key = ${`application:ip:${from}`}`).toEqual([]);
  });

  it('takes the largest valid application, and refuses more or larger documents than the limits', async () => {
    const max = pdf(MAX_DOCUMENT_BYTES);
    const largest = application(
      driverPhone(),
      ['driver_licence', 'vehicle_licence', 'insurance', 'other'].map((kind) => ({ kind, data: max })),
    );
    expect(Buffer.byteLength(JSON.stringify(largest))).toBeLessThanOrEqual(APPLICATION_BODY_LIMIT);
    const ok = await post(ip(), largest);
    expect(ok.statusCode, ok.body.slice(0, 300)).toBe(201);
    const id = ok.json<{ driver_id: string }>().driver_id;
    // Stored as sent (Postgres decodes the base64): the bytes, their size and their hash agree.
    expect(
      await stack.sql`
      select length(data) as length, size_bytes, encode(sha256(data), 'hex') = sha256 as hashed, substr(data, 1, 4) = '%PDF'::bytea as pdf
        from driver_documents where driver_id = ${id}`,
    ).toEqual(Array(4).fill({ length: MAX_DOCUMENT_BYTES, size_bytes: MAX_DOCUMENT_BYTES, hashed: true, pdf: true }));
    // Base64 without its padding is still taken, as before.
    const unpadded = pdf(13).replace(/=+$/, '');
    expect(unpadded.length % 4).not.toBe(0);
    const small = await post(
      ip(),
      application(driverPhone(), [
        { kind: 'driver_licence', data: unpadded },
        { kind: 'vehicle_licence', data: SMALL },
      ]),
    );
    expect(small.statusCode, small.body).toBe(201);
    expect(
      await stack.sql`select size_bytes from driver_documents where driver_id = ${small.json().driver_id} order by id`,
    ).toEqual([{ size_bytes: 13 }, { size_bytes: 64 }]);

    // Four documents of 3.5 MB each were accepted before (5 MB each, 48 MB a body): now 413.
    const big = pdf(3.5 * 1024 * 1024);
    const tooBig = await post(
      ip(),
      application(
        driverPhone(),
        ['driver_licence', 'vehicle_licence', 'insurance', 'other'].map((kind) => ({ kind, data: big })),
      ),
    );
    expect(tooBig.statusCode).toBe(413);
    // One document just over 3 MB in a small body, and a fifth document: refused, naming the field.
    const oneOver = await post(
      ip(),
      application(driverPhone(), [
        { kind: 'driver_licence', data: pdf(MAX_DOCUMENT_BYTES + 1) },
        { kind: 'vehicle_licence', data: SMALL },
      ]),
    );
    expect(oneOver.statusCode).toBe(400);
    expect(oneOver.json().errors).toEqual([expect.objectContaining({ field: 'body.documents.0.data_base64' })]);
    const five = await post(
      ip(),
      application(
        driverPhone(),
        ['driver_licence', 'vehicle_licence', 'insurance', 'other', 'other'].map((kind) => ({ kind, data: SMALL })),
      ),
    );
    expect(five.statusCode).toBe(400);
    expect(five.json().errors).toEqual([expect.objectContaining({ field: 'body.documents' })]);
  });

  it('gives no slot to connections that declare 16 MB and send nothing: two of them, then a real application goes through at once', async () => {
    // The finding: two idle declarers held both slots for 120 s and real applicants got 503. No
    // wait for a slot here, so a slot they held would be a 503 at once; their silence is allowed
    // for longer than the test takes, so they are still there when the real one comes.
    const s = await server({
      APPLICATION_UPLOADS_IN_FLIGHT: 2,
      APPLICATION_UPLOAD_WAIT_SECONDS: 0,
      APPLICATION_UPLOAD_IDLE_SECONDS: 60,
    });
    const declarers = ['127.0.0.2', '127.0.0.3'].map((from) => rawPost(s.port, from, 16_000_000));
    try {
      // Both are past their headers: the ceiling (before the body, after the old slot) counted them.
      for (const from of ['127.0.0.2', '127.0.0.3']) expect(await counted(from)).toBe(1);
      const real = await rawApplication(s.port, '127.0.0.4').answer;
      expect(real.status, real.text.slice(0, 300)).toBe(201);
      expect(declarers.every((d) => !d.socket.destroyed)).toBe(true);
      // Only the real application ever had a slot.
      expect((await s.slotsTaken(1)).length).toBe(1);
    } finally {
      for (const d of declarers) d.socket.destroy();
      await s.close();
    }
  });

  it('cuts off (408) a declarer that sends nothing, one that stalls in its slot and one that trickles; a real application waits for the freed slot instead of a 503', async () => {
    const s = await server({
      APPLICATION_UPLOADS_IN_FLIGHT: 1,
      APPLICATION_UPLOAD_IDLE_SECONDS: 0.3,
      APPLICATION_UPLOAD_MIN_BYTES_PER_SECOND: 1024 * 1024,
      APPLICATION_UPLOAD_WAIT_SECONDS: 30,
    });
    try {
      const nothing = rawPost(s.port, '127.0.0.5', 16_000_000);
      expect((await nothing.answer).status).toBe(408);
      // First bytes and then silence: it takes the only slot, then loses it.
      const staller = rawPost(s.port, '127.0.0.6', 16_000_000, '{"name":"');
      await s.slotsTaken(1);
      const real = rawApplication(s.port, '127.0.0.7');
      const stalled = await staller.answer;
      expect(stalled.status).toBe(408);
      expect(stalled.text).toContain('upload_too_slow');
      const admitted = await real.answer;
      expect(admitted.status, admitted.text.slice(0, 300)).toBe(201);
      // A byte every 20 ms is never silent for 0.3 s, and far below 1 MB/s.
      const trickler = rawPost(s.port, '127.0.0.8', 16_000_000, '{');
      const drip = setInterval(() => trickler.socket.write(' '), 20);
      try {
        const trickled = await trickler.answer;
        expect(trickled.status).toBe(408);
        expect(trickled.text).toContain('too slowly');
      } finally {
        clearInterval(drip);
      }
      const cutOff = s.lines.filter((l) => l.msg === 'upload cut off').map((l) => l.why);
      expect(cutOff).toEqual(['idle', 'slow']);
    } finally {
      await s.close();
    }
  });

  it('holds one upload per address, IPv6 by its /64, and the process’s total; with no wait, the rest are refused 503 once their bytes come', async () => {
    const s = await server({ APPLICATION_UPLOADS_IN_FLIGHT: 2, APPLICATION_UPLOAD_WAIT_SECONDS: 0 });
    const send = (address: string, contentLength: number) => {
      const body = new PassThrough();
      const reply = s.app.inject({
        method: 'POST',
        url: URL,
        remoteAddress: address,
        payload: body,
        headers: { 'content-type': 'application/json', 'content-length': String(contentLength) },
      });
      return { body, reply };
    };
    try {
      const bodyA = JSON.stringify(application(driverPhone()));
      const first = send('2001:db8:33:1::a', Buffer.byteLength(bodyA));
      first.body.write(bodyA.slice(0, 100));
      await s.slotsTaken(1);

      // Another address of the same /64: the same subscriber, 503 from this address.
      const again = send('2001:db8:33:1:ffff::b', 5000);
      again.body.write('{"name":');
      const busy = await again.reply;
      again.body.destroy();
      expect(busy.statusCode).toBe(503);
      expect(busy.headers['retry-after']).toBe('5');
      expect(busy.json()).toMatchObject({ code: 'uploads_busy', detail: expect.stringContaining('from this address') });

      // Another /64 takes the second slot; a third address finds the process full.
      const bodyB = JSON.stringify(application(driverPhone()));
      const second = send('2001:db8:33:2::1', Buffer.byteLength(bodyB));
      second.body.write(bodyB.slice(0, 100));
      await s.slotsTaken(2);
      const full = send('2001:db8:33:3::1', 5000);
      full.body.write('{"name":');
      const refused = await full.reply;
      full.body.destroy();
      expect(refused.statusCode).toBe(503);
      expect(refused.json().detail).not.toContain('from this address');

      // Finished uploads give their slots back.
      first.body.end(bodyA.slice(100));
      expect((await first.reply).statusCode).toBe(201);
      second.body.end(bodyB.slice(100));
      expect((await second.reply).statusCode).toBe(201);
      const res = await s.app.inject({
        method: 'POST',
        url: URL,
        remoteAddress: '2001:db8:33:1::c',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(application(driverPhone())),
      });
      expect(res.statusCode).toBe(201);
      // Counted as one address: the /64.
      expect(
        await stack.sql`select hits from rate_limit_counters where key = ${'application:ip:2001:db8:33:1::/64'}`,
      ).toEqual([{ hits: 3 }]);
    } finally {
      await s.close();
    }
  });

  it('lets an upload that finds the slots full wait for one instead of a 503', async () => {
    const s = await server({ APPLICATION_UPLOADS_IN_FLIGHT: 1, APPLICATION_UPLOAD_WAIT_SECONDS: 30 });
    try {
      const bodyA = JSON.stringify(application(driverPhone()));
      const first = rawPost(s.port, '127.0.0.9', Buffer.byteLength(bodyA), bodyA.slice(0, 100));
      await s.slotsTaken(1);
      const waiting = rawApplication(s.port, '127.0.0.10');
      // Its bytes are in, and it is waiting, not refused: the first finishes, then it goes through.
      first.socket.write(bodyA.slice(100));
      expect((await first.answer).status).toBe(201);
      const after = await waiting.answer;
      expect(after.status, after.text.slice(0, 300)).toBe(201);
    } finally {
      await s.close();
    }
  });

  it('cuts off a body that does not arrive in time, and frees its slot', async () => {
    const app = await buildApp({
      config: { ...stack.config, APPLICATION_UPLOAD_TIMEOUT_SECONDS: 1 },
      sql: stack.sql,
      temporal: stack.client,
      logger: false,
    });
    const port = await freePort();
    await app.listen({ port, host: '127.0.0.1' });
    try {
      const socket = net.connect(port, '127.0.0.1');
      let answer = '';
      socket.on('data', (d: Buffer) => (answer += d.toString()));
      const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())));
      const started = Date.now();
      // Coming steadily enough would not save it either: the deadline counts from its slot, whatever the pace.
      socket.write(
        `POST ${URL} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"name":`,
      );
      expect((await closed) - started).toBeGreaterThanOrEqual(900);
      // Told why (408) before the connection is closed.
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(answer).toContain('did not arrive in time');
      // The same address may upload again at once.
      const res = await fetch(`http://127.0.0.1:${port}${URL}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(application(driverPhone())),
      });
      expect(res.status).toBe(201);
    } finally {
      await app.close();
    }
  });

  it('counts one applicant before the address, so one person cannot use up an office’s allowance', async () => {
    const office = ip();
    const pat = driverPhone();
    expect((await post(office, application(pat))).statusCode).toBe(201);
    expect((await post(office, application(pat))).statusCode).toBe(409); // already applied
    for (let i = 0; i < 2; i++) {
      const res = await post(office, application(pat));
      expect(res.statusCode).toBe(429);
      expect(res.json().detail).toContain('this phone number');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Pat's refused retries did not count against the office: two colleagues still apply.
    expect((await post(office, application(driverPhone()))).statusCode).toBe(201);
    expect((await post(office, application(driverPhone()))).statusCode).toBe(201);
    const fifth = await post(office, application(driverPhone()));
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json().detail).toContain('this address');
    // Applying is counted apart from booking: the office's bookings are untouched.
    expect(await stack.sql`select key from rate_limit_counters where key = ${`booking:ip:${office}`}`).toEqual([]);
  });

  it('caps every attempt from one address before its body is read', async () => {
    const flood = ip();
    for (let i = 0; i < 8; i++) expect((await post(flood, { name: 'x' })).statusCode).toBe(400);
    const { body, reply } = upload(flood, 5000);
    const res = await reply;
    body.destroy();
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('rate_limited');
  });
});
