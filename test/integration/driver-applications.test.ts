// Issue 20 (6), through HTTP on the real stack: a driver application and its documents are bounded
// in count and size (413 by Content-Length before the body is read), uploads in flight are capped
// per process and per address (503 with Retry-After, before the body is read), a body that does not
// arrive in time is cut off, and the hourly allowances are per applicant first, then per address,
// so one person cannot use up an office's.
import net from 'node:net';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../dev/free-port.js';
import { buildApp } from '../../src/app.js';
import { APPLICATION_BODY_LIMIT, MAX_DOCUMENT_BYTES } from '../../src/drivers/application-limits.js';
import { eventually, startStack, type TestStack } from '../support/stack.js';

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

function application(phone: string, documents: Array<{ kind: string; data: string }> = [{ kind: 'driver_licence', data: SMALL }, { kind: 'vehicle_licence', data: SMALL }]) {
  return {
    name: 'Lee Applicant', phone, email: 'lee@example.com', licensing_authority: 'Leeds City Council',
    driver_licence_number: 'LCC-D-42', driver_licence_expires: '2030-01-31', vehicle_licence_number: 'LCC-V-42',
    vehicle_licence_expires: '2029-06-30', vehicle_make: 'Toyota', vehicle_model: 'Prius', vehicle_registration: 'yx70 abc',
    vehicle_type: 'saloon', seats: 4, tier: 'local', home_area: 'leeds',
    documents: documents.map((d) => ({ kind: d.kind, content_type: 'application/pdf', data_base64: d.data })),
  };
}

const post = (address: string, body: unknown) =>
  stack.app.inject({ method: 'POST', url: URL, remoteAddress: address, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });

/** An upload whose body the test feeds by hand: it holds its slot until the body ends. */
function upload(address: string, contentLength: number) {
  const body = new PassThrough();
  const reply = stack.app.inject({
    method: 'POST', url: URL, remoteAddress: address, payload: body,
    headers: { 'content-type': 'application/json', 'content-length': String(contentLength) },
  });
  return { body, reply };
}

/** The ceiling's counter is taken right after the slot, both before the body: seen, the slot is held. */
const counted = (address: string) =>
  eventually(async () => {
    const [row] = await stack.sql<{ hits: number }[]>`select hits from rate_limit_counters where key = ${`application:ip:${address}`}`;
    return row ? row.hits : undefined;
  }, 10_000, `the application counter of ${address}`);

describe('driver applications, bounded', () => {
  it('refuses a body over the limit by its Content-Length, before reading any of it', async () => {
    const { body, reply } = upload(ip(), APPLICATION_BODY_LIMIT + 1);
    // Not a byte of the body was sent: the answer can only have come from the header.
    const res = await reply;
    body.destroy();
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ status: 413, code: 'payload_too_large' });
  });

  it('takes the largest valid application, and refuses more or larger documents than the limits', async () => {
    const max = pdf(MAX_DOCUMENT_BYTES);
    const largest = application(driverPhone(), ['driver_licence', 'vehicle_licence', 'insurance', 'other'].map((kind) => ({ kind, data: max })));
    expect(Buffer.byteLength(JSON.stringify(largest))).toBeLessThanOrEqual(APPLICATION_BODY_LIMIT);
    const ok = await post(ip(), largest);
    expect(ok.statusCode, ok.body.slice(0, 300)).toBe(201);
    const id = ok.json<{ driver_id: string }>().driver_id;
    // Stored as sent (Postgres decodes the base64): the bytes, their size and their hash agree.
    expect(await stack.sql`
      select length(data) as length, size_bytes, encode(sha256(data), 'hex') = sha256 as hashed, substr(data, 1, 4) = '%PDF'::bytea as pdf
        from driver_documents where driver_id = ${id}`).toEqual(Array(4).fill({ length: MAX_DOCUMENT_BYTES, size_bytes: MAX_DOCUMENT_BYTES, hashed: true, pdf: true }));
    // Base64 without its padding is still taken, as before.
    const unpadded = pdf(13).replace(/=+$/, '');
    expect(unpadded.length % 4).not.toBe(0);
    const small = await post(ip(), application(driverPhone(), [{ kind: 'driver_licence', data: unpadded }, { kind: 'vehicle_licence', data: SMALL }]));
    expect(small.statusCode, small.body).toBe(201);
    expect(await stack.sql`select size_bytes from driver_documents where driver_id = ${small.json().driver_id} order by id`).toEqual([{ size_bytes: 13 }, { size_bytes: 64 }]);

    // Four documents of 3.5 MB each were accepted before (5 MB each, 48 MB a body): now 413.
    const big = pdf(3.5 * 1024 * 1024);
    const tooBig = await post(ip(), application(driverPhone(), ['driver_licence', 'vehicle_licence', 'insurance', 'other'].map((kind) => ({ kind, data: big }))));
    expect(tooBig.statusCode).toBe(413);
    // One document just over 3 MB in a small body, and a fifth document: refused, naming the field.
    const oneOver = await post(ip(), application(driverPhone(), [{ kind: 'driver_licence', data: pdf(MAX_DOCUMENT_BYTES + 1) }, { kind: 'vehicle_licence', data: SMALL }]));
    expect(oneOver.statusCode).toBe(400);
    expect(oneOver.json().errors).toEqual([expect.objectContaining({ field: 'body.documents.0.data_base64' })]);
    const five = await post(ip(), application(driverPhone(), ['driver_licence', 'vehicle_licence', 'insurance', 'other', 'other'].map((kind) => ({ kind, data: SMALL }))));
    expect(five.statusCode).toBe(400);
    expect(five.json().errors).toEqual([expect.objectContaining({ field: 'body.documents' })]);
  });

  it('holds one upload per address and two in the process, refusing the rest before their bodies are read', async () => {
    const [a, b, c] = [ip(), ip(), ip()];
    const bodyA = JSON.stringify(application(driverPhone()));
    const first = upload(a, Buffer.byteLength(bodyA));
    first.body.write(bodyA.slice(0, 100));
    expect(await counted(a)).toBe(1);

    // A second upload from the same address: 503 with Retry-After, though its body never comes.
    const again = upload(a, 5000);
    const busy = await again.reply;
    again.body.destroy();
    expect(busy.statusCode).toBe(503);
    expect(busy.headers['retry-after']).toBe('5');
    expect(busy.json()).toMatchObject({ code: 'uploads_busy', detail: expect.stringContaining('from this address') });

    // Another address takes the second slot; a third address finds the process full.
    const bodyB = JSON.stringify(application(driverPhone()));
    const second = upload(b, Buffer.byteLength(bodyB));
    expect(await counted(b)).toBe(1);
    const full = upload(c, 5000);
    const refused = await full.reply;
    full.body.destroy();
    expect(refused.statusCode).toBe(503);
    expect(refused.json().detail).not.toContain('from this address');
    // Refused before the ceiling counted it: a busy answer costs the caller none of its allowance.
    expect(await stack.sql`select 1 from rate_limit_counters where key = ${`application:ip:${c}`}`).toEqual([]);

    // Finished uploads give their slots back.
    first.body.end(bodyA.slice(100));
    expect((await first.reply).statusCode).toBe(201);
    second.body.end(bodyB);
    expect((await second.reply).statusCode).toBe(201);
    const admitted = await eventually(async () => {
      const res = await post(c, application(driverPhone()));
      return res.statusCode === 503 ? undefined : res;
    }, 10_000, 'a free slot');
    expect(admitted.statusCode).toBe(201);
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
      const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())));
      const started = Date.now();
      socket.write(`POST ${URL} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"name":`);
      expect((await closed) - started).toBeGreaterThanOrEqual(900);
      // The same address may upload again at once.
      const res = await fetch(`http://127.0.0.1:${port}${URL}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(application(driverPhone())) });
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
