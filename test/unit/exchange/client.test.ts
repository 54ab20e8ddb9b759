// What we send an exchange fleet (src/exchange/client.ts, job.ts): the job as its intake takes it,
// signed in the form that intake verifies (our own verifier stands in for the fleet's), and its
// answers read as taken, refused (never retried) or unavailable (retried).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookingRow } from '../../../src/bookings/store.js';
import { FleetUnavailable, postJob, registerHookAt } from '../../../src/exchange/client.js';
import { exchangeJob } from '../../../src/exchange/job.js';
import { verifyPartnerSignature } from '../../../src/partners/signature.js';
import { PartnerJobSchema } from '../../../src/schemas/partner-job.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}
let answer: { status: number; body: unknown } = { status: 200, body: {} };
const seen: Seen[] = [];
let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const place = (label: string) => ({
  label,
  kind: 'station',
  lat: 53.47,
  lon: -2.23,
  postcodeDistrict: 'M1',
  council: 'Manchester',
});
const booking = {
  ref: 'TX7K2M9QH4WD',
  pickup_query: 'Manchester Piccadilly',
  dropoff_query: 'Manchester Airport',
  pickup: place('Manchester Piccadilly (MAN) station'),
  dropoff: place('Manchester Airport (MAN)'),
  pickup_at: new Date('2026-12-24T06:30:00Z'),
  passenger_name: 'Ada Lovelace',
  passenger_phone: '+447400123456',
  passengers: 2,
  vehicle_type: 'saloon',
  wheelchair: false,
  fare_pence: 4250,
  flight_number: null,
  notes: 'Two cases',
} as unknown as BookingRow;
const fleet = () => ({ baseUrl, ourPartnerId: 'direct-a', signingSecret: 'secret-of-a-at-b-0123456789abcdef' });

describe('the job an exchange fleet is sent', () => {
  it('is a valid PartnerJob under our reference, with what the passenger typed and our fare', () => {
    const job = exchangeJob(booking, 'new', new Date('2026-12-01T00:00:00Z'));
    expect(PartnerJobSchema.parse(job)).toEqual({
      jobRef: 'TX7K2M9QH4WD',
      action: 'new',
      pickup: 'Manchester Piccadilly',
      dropoff: 'Manchester Airport',
      pickupTime: '2026-12-24T06:30:00.000Z',
      passengerName: 'Ada Lovelace',
      passengerPhone: '+447400123456',
      passengers: 2,
      vehicleType: 'saloon',
      fare: 42.5,
      notes: 'Two cases',
    });
  });

  it('is due now, not in the past, when it is handed over late', () => {
    expect(exchangeJob(booking, 'cancel', new Date('2026-12-24T07:00:00Z')).pickupTime).toBe(
      '2026-12-24T07:00:00.000Z',
    );
  });

  it('is POSTed to the fleet signed with the body-only v1 form its intake verifies', async () => {
    answer = {
      status: 200,
      body: {
        accepted: 1,
        rejected: 0,
        results: [
          {
            jobRef: booking.ref,
            action: 'new',
            outcome: 'accepted',
            code: 'booked',
            message: '',
            bookingReference: 'TXB0000000001',
            bookingStatus: 'dispatching',
          },
        ],
      },
    };
    const at = new Date();
    const r = await postJob(fleet(), exchangeJob(booking, 'new'), () => at);
    expect(r).toEqual({ outcome: 'accepted', code: 'booked', remoteRef: 'TXB0000000001', remoteStatus: 'dispatching' });
    const req = seen.at(-1)!;
    expect([req.method, req.url, req.headers['x-partner']]).toEqual(['POST', '/api/public/v1/jobs', 'direct-a']);
    // Said to be an exchange's job: the fleet's intake records it, and never hands it on (one hop).
    expect(req.headers['x-exchange-hop']).toBe('1');
    const check = verifyPartnerSignature(
      [fleet().signingSecret],
      req.headers['x-signature'] as string,
      { method: 'POST', target: req.url, body: req.body },
      Math.floor(at.getTime() / 1000),
      {
        signer: 'direct-a',
        route: '/api/public/v1/jobs',
        bodyOnly: true,
      },
    );
    expect(check).toMatchObject({ ok: true, form: 'v1' });
  });

  it('reads a refused job as refused, and an unreachable or failing fleet as worth retrying', async () => {
    answer = {
      status: 207,
      body: {
        accepted: 0,
        rejected: 1,
        results: [
          {
            jobRef: booking.ref,
            action: 'new',
            outcome: 'rejected',
            code: 'address_uncertain',
            message: 'Not sure',
            bookingReference: null,
            bookingStatus: null,
          },
        ],
      },
    };
    expect(await postJob(fleet(), exchangeJob(booking, 'new'))).toEqual({
      outcome: 'rejected',
      code: 'address_uncertain',
      message: 'Not sure',
    });
    // Not taken in in time: nothing applied, sent again.
    answer = {
      status: 207,
      body: {
        accepted: 0,
        rejected: 1,
        results: [
          {
            jobRef: booking.ref,
            action: 'new',
            outcome: 'rejected',
            code: 'try_again',
            message: 'Send it again',
            bookingReference: null,
            bookingStatus: null,
          },
        ],
      },
    };
    await expect(postJob(fleet(), exchangeJob(booking, 'new'))).rejects.toBeInstanceOf(FleetUnavailable);
    for (const status of [401, 429, 503]) {
      answer = { status, body: { code: 'x' } };
      await expect(postJob(fleet(), exchangeJob(booking, 'new'))).rejects.toBeInstanceOf(FleetUnavailable);
    }
    await expect(
      postJob({ ...fleet(), baseUrl: 'http://127.0.0.1:1' }, exchangeJob(booking, 'new')),
    ).rejects.toBeInstanceOf(FleetUnavailable);
  });

  it('registers our hook URL at the fleet signed v2 (method and target covered), keeping the whsec_ it answers', async () => {
    answer = {
      status: 200,
      body: {
        url: 'http://127.0.0.1:3000/api/public/hooks/booking-status',
        signingSecret: 'whsec_abc',
        secretIssuedAt: new Date().toISOString(),
      },
    };
    const at = new Date();
    const r = await registerHookAt(fleet(), 'http://127.0.0.1:3000/api/public/hooks/booking-status', () => at);
    expect(r).toEqual({ url: 'http://127.0.0.1:3000/api/public/hooks/booking-status', signingSecret: 'whsec_abc' });
    const req = seen.at(-1)!;
    expect([req.method, req.url]).toEqual(['PUT', '/api/public/v1/partner/webhook']);
    const check = verifyPartnerSignature(
      [fleet().signingSecret],
      req.headers['x-signature'] as string,
      { method: 'PUT', target: req.url, body: req.body },
      Math.floor(at.getTime() / 1000),
      {
        signer: 'direct-a',
        route: '/api/public/v1/partner/webhook',
        bodyOnly: false,
      },
    );
    expect(check).toMatchObject({ ok: true, form: 'v2' });
  });
});
