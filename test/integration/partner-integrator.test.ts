// An integrator's client, written from the interface specification and the OpenAPI document alone
// (issue 22, "Done means"): spec 5 says "sign the raw request body with HMAC SHA-256; send headers
// x-partner and x-signature", so this client sends a lowercase hex HMAC-SHA256 of the exact body
// bytes, over real HTTP. It sends a batch of 100 of the largest valid jobs, retries it verbatim,
// amends a time, cancels and sends the job again, looks jobs up by its own jobRef, and finds the
// limits where the OpenAPI document says they are.
import { createHmac, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPartner, issueSigningSecret } from '../../src/partners/store.js';
import { startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let base: string;
let openapi: {
  paths: Record<string, Record<string, { responses: Record<string, unknown>; description?: string }>>;
  components: {
    schemas: Record<string, { properties?: Record<string, { maxLength?: number; description?: string }> }>;
  };
};
beforeAll(async () => {
  stack = await startStack();
  await stack.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(stack.app.server.address() as AddressInfo).port}`;
  openapi = (await (await fetch(`${base}/api/public/openapi.json`)).json()) as typeof openapi;
});
afterAll(async () => stack?.close());

// Tomorrow, on the minute, so the jobs are pre-booked and a job built twice is the same job.
const TOMORROW = Math.floor(Date.now() / 60_000) * 60_000 + 26 * 3600_000;
const at = (minutes: number) => new Date(TOMORROW + minutes * 60_000).toISOString();

// The replies are read as the document describes them, loosely: this client knows only field names.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

interface Integrator {
  id: string;
  secret: string;
}
async function integrator(): Promise<Integrator> {
  const id = `int-${randomUUID().slice(0, 8)}`;
  await createPartner(stack.sql, { id, name: `Integrator ${id}`, kind: 'partner', dailyJobLimit: 10_000 });
  return { id, secret: await issueSigningSecret(stack.sql, stack.config.PARTNER_SECRETS_KEY, id) };
}

/** What the spec says to do, and nothing more: an HMAC-SHA256 of the raw body, in hex. */
async function post(p: Integrator, body: string, path = '/api/public/v1/jobs') {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-partner': p.id,
      'x-signature': createHmac('sha256', p.secret).update(body).digest('hex'),
    },
    body,
  });
  return { status: res.status, json: (await res.json()) as Json };
}

/** The lookup by jobRef the OpenAPI document lists (getPartnerJob), signed as its description says (v2 of the GET). */
async function lookUp(p: Integrator, jobRef: string) {
  const target = `/api/public/v1/partner/jobs/${encodeURIComponent(jobRef)}`;
  const t = Math.floor(Date.now() / 1000);
  const v2 = createHmac('sha256', p.secret).update(`${t}\nGET\n${target}\n`).digest('hex');
  const res = await fetch(`${base}${target}`, { headers: { 'x-partner': p.id, 'x-signature': `t=${t},v2=${v2}` } });
  return { status: res.status, json: (await res.json()) as Json };
}

/** The largest job the PartnerJob schema allows, with a real Manchester address. */
function largestJob(jobRef: string, minutes: number) {
  return {
    jobRef: jobRef.padEnd(100, 'X'),
    action: 'new',
    pickup: 'Flat 12, The Old Mill Building, 10 Wilmslow Road, Rusholme, Manchester M14 5TQ',
    dropoff: 'Manchester Airport Terminal 2, Manchester M90 1QX',
    pickupTime: at(minutes),
    passengerName: 'Alexandra Catherine Montgomery-Fitzwilliam'.padEnd(100, 'e'),
    passengerPhone: '+447400123456',
    passengerEmail: `alexandra.montgomery.fitzwilliam.${minutes}@example.co.uk`,
    passengers: 4,
    vehicleType: 'Estate car',
    flightNumber: 'BA1387',
    notes: 'Two large cases and a folding pushchair; meet at the main entrance. '.repeat(8).slice(0, 500),
  };
}

describe('a partner integrator working from the spec alone', () => {
  it('sends a signed batch of 100 of the largest valid jobs, retries it verbatim, and gets exactly 100 bookings', async () => {
    const p = await integrator();
    const body = JSON.stringify(Array.from({ length: 100 }, (_, i) => largestJob(`BIG-${i}-`, i)));
    expect(Buffer.byteLength(body)).toBeGreaterThan(64 * 1024);
    const first = await post(p, body);
    expect(first.status, JSON.stringify(first.json).slice(0, 500)).toBe(200);
    expect(first.json.accepted).toBe(100);
    expect(new Set(first.json.results.map((r: { code: string }) => r.code))).toEqual(new Set(['created']));
    // The reply was lost: the same bytes, the same signature. Nothing changes; each job is a duplicate.
    const again = await post(p, body);
    expect(again.status).toBe(200);
    expect(
      again.json.results.every(
        (r: { code: string; bookingReference: string }, i: number) =>
          r.code === 'duplicate' && r.bookingReference === first.json.results[i].bookingReference,
      ),
    ).toBe(true);
    const [row] = await stack.sql<{ n: number }[]>`select count(*)::int as n from bookings where partner_id = ${p.id}`;
    expect(row?.n).toBe(100);
    // Every one shows under its own jobRef, with the vehicle named in free text booked, not refused.
    const one = await lookUp(p, largestJob('BIG-7-', 7).jobRef);
    expect(one.status).toBe(200);
    expect(one.json).toMatchObject({ state: 'booked', bookingReference: first.json.results[7].bookingReference });
  });

  it('finds the limits where the OpenAPI document puts them: 101 jobs a 400 naming 100, a body over the byte limit a 413 naming it', async () => {
    const p = await integrator();
    const jobs = openapi.paths['/api/public/v1/jobs']!.post!;
    expect(Object.keys(jobs.responses)).toEqual(expect.arrayContaining(['200', '207', '400', '401', '413', '429']));
    const tooMany = await post(p, JSON.stringify(Array.from({ length: 101 }, (_, i) => largestJob(`MANY-${i}-`, i))));
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.code).toBe('too_many_jobs');
    expect(tooMany.json.detail).toContain('at most 100');
    // Larger than 100 of the largest valid jobs could ever be: refused before it is read.
    const huge = JSON.stringify({
      jobRef: 'HUGE-1',
      pickup: 'Hexham',
      dropoff: 'Hexham station',
      pickupTime: at(0),
      notes: 'x'.repeat(1_100_000),
    });
    const refused = await post(p, huge);
    expect(refused.status).toBe(413);
    expect(refused.json).toMatchObject({ code: 'payload_too_large' });
    expect(refused.json.limitBytes).toBeGreaterThan(100 * 9_000);
    expect(refused.json.detail).toContain(String(refused.json.limitBytes));
  });

  it('moves a job late in the evening without resending a fare, changes its pickup and vehicle, cancels it, sends it again, and looks it up by jobRef', async () => {
    const p = await integrator();
    const ref = 'ACME/2026#000123';
    const job = {
      jobRef: ref,
      pickup: '10 Wilmslow Road, Rusholme, Manchester M14 5TQ',
      dropoff: 'Manchester Piccadilly station',
      pickupTime: at(14 * 60),
      passengerName: 'Sam Patel',
      passengerPhone: '+447400123456',
      vehicleType: 'people carrier',
      passengers: 5,
    };
    const created = await post(p, JSON.stringify(job));
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    expect(created.json.results[0]).toMatchObject({ jobRef: ref, outcome: 'accepted', code: 'created' });
    const bookingRef = created.json.results[0].bookingReference;
    const before = await lookUp(p, ref);
    expect(before.status, JSON.stringify(before.json)).toBe(200);
    expect(before.json).toMatchObject({
      jobRef: ref,
      state: 'booked',
      bookingReference: bookingRef,
      bookingStatus: expect.any(String),
    });

    const later = await post(p, JSON.stringify({ ...job, action: 'amend', pickupTime: at(23 * 60 + 30) }));
    expect(later.status, JSON.stringify(later.json)).toBe(200);
    expect(later.json.results[0]).toMatchObject({ outcome: 'accepted', code: 'amended', bookingReference: bookingRef });
    const moved = await lookUp(p, ref);
    expect(moved.status, JSON.stringify(moved.json)).toBe(200);
    expect(moved.json.pickupAt).toBe(at(23 * 60 + 30));
    // A new pickup (no driver is on the way yet), then a vehicle named the way people name it.
    const pickup = '221 Wilmslow Road, Fallowfield, Manchester M14 6LS';
    const repicked = await post(p, JSON.stringify({ ...job, action: 'amend', pickup, pickupTime: at(23 * 60 + 30) }));
    expect(repicked.json.results[0], JSON.stringify(repicked.json)).toMatchObject({
      outcome: 'accepted',
      code: 'amended',
      bookingReference: bookingRef,
    });
    const wheelchair = await post(
      p,
      JSON.stringify({
        ...job,
        action: 'amend',
        pickup,
        pickupTime: at(23 * 60 + 30),
        vehicleType: 'Wheelchair accessible',
      }),
    );
    expect(wheelchair.json.results[0], JSON.stringify(wheelchair.json)).toMatchObject({
      outcome: 'accepted',
      code: 'amended',
    });
    const [row] = await stack.sql<
      { pickup: { lat: number; lon: number }; vehicle_type: string }[]
    >`select pickup, vehicle_type from bookings where ref = ${bookingRef}`;
    expect(row?.vehicle_type).toBe('wav');
    // M14 6LS (Fallowfield) is about 2 km south of M14 5TQ (Rusholme).
    expect(row!.pickup.lat).toBeGreaterThan(53.435);
    expect(row!.pickup.lat).toBeLessThan(53.45);

    expect(
      (
        await post(
          p,
          JSON.stringify({ jobRef: ref, action: 'cancel', pickup, dropoff: job.dropoff, pickupTime: at(23 * 60 + 30) }),
        )
      ).json.results[0],
    ).toMatchObject({ code: 'cancelled' });
    expect((await lookUp(p, ref)).json).toMatchObject({ state: 'cancelled', bookingStatus: 'cancelled' });
    // Sent again as new, with new details: the code is one the OpenAPI document lists.
    const codes = openapi.components.schemas.JobResult!.properties!.code!.description!;
    const again = await post(p, JSON.stringify({ ...job, pickupTime: at(16 * 60) }));
    expect(again.status).toBeLessThan(300);
    expect(codes).toContain(again.json.results[0].code);

    // Someone else's jobRef is not there for them.
    const other = await integrator();
    expect((await lookUp(other, ref)).status).toBe(404);
    expect((await lookUp(p, 'NEVER-SENT')).status).toBe(404);
  });
});
