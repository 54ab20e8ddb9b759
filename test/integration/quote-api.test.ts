import { randomUUID } from 'node:crypto';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { approveRateOverride } from '../../src/quotes/rate-overrides.js';
import { BOOKING_STATUSES } from '../../src/model/bookings.js';
import { quoteWorkflowId } from '../../workflows/quotes/definitions.js';
import { eventually, startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ PUBLIC_DOMAINS: 'https://taxi.example.com,https://book.example.org' });
});
afterAll(async () => stack?.close());

/** Each test calls from its own address so rate-limit buckets never leak between tests. */
const freshIp = () =>
  `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

function quote(body: unknown, opts: { headers?: Record<string, string>; ip?: string; path?: string } = {}) {
  return stack.app.inject({
    method: 'POST',
    url: opts.path ?? '/api/public/v1/quote',
    headers: { 'content-type': 'application/json', ...opts.headers },
    remoteAddress: opts.ip ?? freshIp(),
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const inAnHour = () => new Date(Date.now() + 3600_000).toISOString();

describe('POST /api/public/v1/quote', () => {
  it('quotes Manchester Piccadilly to Manchester Airport on the Manchester tariff and records an open quote workflow', async () => {
    const res = await quote({ pickup: 'Manchester Piccadilly', dropoff: 'Manchester Airport', departAt: inAnHour() });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.tariff_source.area_id).toBe('manchester');
    expect(body.tariff_source.authority).toMatch(/Manchester/);
    expect(body.currency).toBe('GBP');
    expect(body.fare).toBe(body.fare_pence / 100);
    // About 14-16 km by road: a real fare in the 25-60 GBP range, not a placeholder.
    expect(body.distance.meters).toBeGreaterThan(12_000);
    expect(body.distance.meters).toBeLessThan(22_000);
    expect(body.fare).toBeGreaterThan(20);
    expect(body.fare).toBeLessThan(70);
    expect(body.applied_rules.map((r: { code: string }) => r.code)).toContain('tariff_period');
    expect(body.applied_rules.reduce((s: number, r: { amount_pence: number }) => s + r.amount_pence, 0)).toBeLessThan(
      body.fare_pence,
    );
    expect(body.booking_url).toBe(`${stack.config.PUBLIC_BASE_URL}/book/${body.quote_id}`);
    expect(body.pickup.kind).toBe('station');
    expect(body.dropoff.kind).toBe('airport');

    const [row] = await stack.sql`select status, fare_pence, expires_at from quotes where id = ${body.quote_id}`;
    expect(row).toMatchObject({ status: 'open', fare_pence: body.fare_pence });
    const described = await stack.client.workflow.getHandle(quoteWorkflowId(body.quote_id)).describe();
    expect(described.status.name).toBe('RUNNING');
    expect(described.type).toBe('quoteWorkflow');
  });

  it('prices a London postcode to Heathrow at 23:30 on a bank holiday on the TfL tariff with night and holiday rules itemised', async () => {
    // 31 Aug 2026 (Summer bank holiday, England) 23:30 BST = 22:30 UTC.
    const departAt = nextBankHolidayAt2330();
    const res = await quote({ pickup: 'SW1A 1AA', dropoff: 'Heathrow Airport', departAt });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.tariff_source.area_id).toBe('london-tfl');
    // London's units are derived, not TfL's table (data/tariffs/README.md): the quote must say so.
    expect(body.tariff_source.provisional).toBe(true);
    expect(body.depart_at_local).toMatch(/T23:30:00/);
    const text = JSON.stringify(body.applied_rules).toLowerCase();
    expect(text).toMatch(/holiday/);
    expect(text).toMatch(/tariff 3|night/);
    expect(body.fare).toBeGreaterThan(40);
  });

  it('accepts the snake-case vehicle_type, and adds nothing for the class that the council table does not', async () => {
    const base = { pickup: 'Bracknell', dropoff: 'RG12 1AA', departAt: inAnHour() };
    const saloon = (await quote({ ...base, vehicle_type: 'saloon' })).json();
    const exec = await quote({ ...base, vehicle_type: 'executive' });
    expect(exec.statusCode).toBe(200);
    expect(exec.json().vehicle_type).toBe('executive');
    // The council's maximum is the fare, whatever the car: no service uplift on top.
    expect(exec.json().fare_pence).toBe(saloon.fare_pence);
    expect(exec.json().applied_rules.map((r: { code: string }) => r.code)).not.toContain('vehicle_class');
    const mismatch = await quote({ ...base, vehicleType: 'saloon', vehicle_type: 'mpv' });
    expect(mismatch.statusCode).toBe(400);
  });

  it('refuses a place it is not sure of with a 422 carrying suggestions, never a confident wrong town', async () => {
    const res = await quote({ pickup: 'Buckingham Palace', dropoff: 'Manchester Airport' });
    if (res.statusCode === 200) {
      // With the place in the gazetteer, it must be the palace in London, not the town of Buckingham.
      expect(res.json().pickup).toMatchObject({ precision: 'point', town: 'London' });
      return;
    }
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    const body = res.json();
    expect(body.code).toBe('address_uncertain');
    expect(body.errors[0].field).toBe('body.pickup');
    expect(body.suggestions.length).toBeGreaterThan(0);
    expect(body.suggestions.length).toBeLessThanOrEqual(5);
    for (const s of body.suggestions) expect(Object.keys(s).sort()).toEqual(['kind', 'label', 'precision', 'town']);
  });

  it('places a full postcode pickup at its unit point, alone or after a house and street', async () => {
    for (const pickup of ['M14 5TQ', 'm145tq', '10 Wilmslow Road, Rusholme, Manchester M14 5TQ']) {
      const res = await quote({ pickup, dropoff: 'Manchester Piccadilly station', departAt: inAnHour() });
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.pickup).toMatchObject({ kind: 'postcode', precision: 'postcode', town: 'Manchester' });
      expect(body.pickup.label).toMatch(/^M14 5TQ\b/);
      // Code-Point Open's point for M14 5TQ (E 385112, N 395473), to within about 50 m.
      expect(body.pickup.latitude).toBeCloseTo(53.4558, 3);
      expect(body.pickup.longitude).toBeCloseTo(-2.22567, 3);
      expect(body.tariff_source.area_id).toBe('manchester');
    }
    // A unit not in the data (never issued) still answers, at its sector.
    const sector = (await quote({ pickup: 'SW1A 1ZZ', dropoff: 'Heathrow Airport', departAt: inAnHour() })).json();
    expect(sector.pickup).toMatchObject({ kind: 'postcode_sector', precision: 'postcode_sector' });
  });

  it('says how precise each end of a quote is', async () => {
    const res = await quote({ pickup: 'Manchester Piccadilly', dropoff: 'Leeds' });
    expect(res.json().pickup).toMatchObject({ precision: 'point', town: 'Manchester' });
    expect(res.json().dropoff).toMatchObject({ precision: 'town_centre', town: 'Leeds' });
  });

  it('fits the group: a car too small is a 400 naming the classes that fit, no class picks the smallest that seats everyone', async () => {
    const base = { pickup: 'Manchester Piccadilly', dropoff: 'Manchester Airport', departAt: inAnHour() };
    const tooSmall = await quote({ ...base, passengers: 6, vehicleType: 'saloon' });
    expect(tooSmall.statusCode).toBe(400);
    expect(tooSmall.json()).toMatchObject({ code: 'vehicle_too_small', errors: [{ field: 'body.vehicleType' }] });
    expect(tooSmall.json().detail).toMatch(/6seater, 7seater, mpv/);
    const group = await quote({ ...base, passengers: 6 });
    expect(group.statusCode).toBe(200);
    expect(group.json().vehicle_type).toBe('6seater');
    const single = (await quote(base)).json();
    expect(single.vehicle_type).toBe('saloon');
    expect(group.json().fare_pence).toBeGreaterThan(single.fare_pence);
  });

  it('adds 25 GBP for meet and greet at an airport', async () => {
    const base = { pickup: 'Glasgow Airport', dropoff: 'Glasgow Central', departAt: inAnHour() };
    const plain = (await quote(base)).json();
    const met = (await quote({ ...base, meetAndGreet: true })).json();
    expect(met.fare_pence - plain.fare_pence).toBe(2500);
    expect(met.applied_rules.find((r: { code: string }) => r.code === 'meet_and_greet')?.amount).toBe(25);
  });

  it('adds nothing for meet and greet on a trip that touches no airport, and says so', async () => {
    const base = {
      pickup: '10 Wilmslow Road, Rusholme, Manchester M14 5TQ',
      dropoff: 'Manchester Piccadilly station',
      departAt: inAnHour(),
    };
    const plain = (await quote(base)).json();
    const asked = (await quote({ ...base, meetAndGreet: true })).json();
    expect(asked.fare_pence).toBe(plain.fare_pence);
    const codes = asked.applied_rules.map((r: { code: string }) => r.code);
    expect(codes).toContain('meet_and_greet_not_applied');
    expect(codes).not.toContain('meet_and_greet');
  });

  it('answers 422 with the problem body when a place cannot be located', async () => {
    const res = await quote({ pickup: 'Qwxyzzy Plonkton Upon Nowhere', dropoff: 'Manchester Airport' });
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.json()).toMatchObject({ status: 422, code: 'address_not_found', errors: [{ field: 'body.pickup' }] });
  });

  it('answers 422 for a journey outside the UK unless worldwide is set', async () => {
    const outside = await quote({ pickup: 'Jersey Airport', dropoff: 'Manchester Airport', departAt: inAnHour() });
    expect(outside.statusCode).toBe(422);
    expect(outside.json().code).toBe('outside_service_area');
  });

  it.each([
    ['malformed JSON', '{"pickup": "Leeds",', 'invalid_json'],
    ['a number where a string belongs', { pickup: 12, dropoff: 'Leeds' }, 'validation_failed'],
    ['an unknown vehicle type', { pickup: 'Leeds', dropoff: 'York', vehicleType: 'spaceship' }, 'validation_failed'],
    ['zero passengers', { pickup: 'Leeds', dropoff: 'York', passengers: 0 }, 'validation_failed'],
    ['nine passengers', { pickup: 'Leeds', dropoff: 'York', passengers: 9 }, 'validation_failed'],
    ['a fractional passenger count', { pickup: 'Leeds', dropoff: 'York', passengers: 2.5 }, 'validation_failed'],
    ['an over-long address', { pickup: 'x'.repeat(201), dropoff: 'York' }, 'validation_failed'],
    ['a missing dropoff', { pickup: 'Leeds' }, 'validation_failed'],
    [
      'a date without a time zone',
      { pickup: 'Leeds', dropoff: 'York', departAt: '2030-01-01 10:00' },
      'validation_failed',
    ],
    [
      'a pickup time in the past',
      { pickup: 'Leeds', dropoff: 'York', departAt: '2020-01-01T10:00:00Z' },
      'depart_at_in_past',
    ],
  ])('answers 400 (never 500) for %s', async (_what, body, code) => {
    const res = await quote(body);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    const problem = res.json();
    expect(problem).toMatchObject({ status: 400, code, title: 'Bad Request' });
    expect(problem.request_id).toBe(res.headers['x-request-id']);
    if (code === 'validation_failed') expect(problem.errors.length).toBeGreaterThan(0);
  });

  it('rejects bodies over the size limit with 413', async () => {
    const res = await quote({ pickup: 'Leeds', dropoff: 'York', notes: 'x'.repeat(40_000) });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('payload_too_large');
  });
});

describe('POST /api/public/quotes/estimate', () => {
  it('returns a uuid quote_id, the fare in GBP and the currency, priced by the same path as v1', async () => {
    const departAt = inAnHour();
    const simple = await quote(
      { pickup_address: 'Filton', dropoff_address: 'Bristol Temple Meads', passenger_count: 2, depart_at: departAt },
      { path: '/api/public/quotes/estimate' },
    );
    expect(simple.statusCode).toBe(200);
    const body = simple.json();
    expect(body.quote_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.currency).toBe('GBP');
    const v1 = (await quote({ pickup: 'Filton', dropoff: 'Bristol Temple Meads', passengers: 2, departAt })).json();
    expect(body.fare).toBe(v1.fare);
    expect(v1.tariff_source.area_id).toBe('south-gloucestershire');
  });

  it('requires passenger_count and rejects the v1-only vehicle types', async () => {
    const missing = await quote(
      { pickup_address: 'Leeds', dropoff_address: 'York' },
      { path: '/api/public/quotes/estimate' },
    );
    expect(missing.statusCode).toBe(400);
    // Said in plain words, field by field, as a client written from the spec needs them.
    expect(missing.json().errors).toEqual([{ field: 'body.passenger_count', message: 'is required' }]);
    const wrong = await quote(
      { dropoff_address: 'York', passenger_count: '2' },
      { path: '/api/public/quotes/estimate' },
    );
    expect(wrong.json().errors).toEqual([
      { field: 'body.pickup_address', message: 'is required' },
      { field: 'body.passenger_count', message: 'must be a number' },
    ]);
    const v1Only = await quote(
      { pickup_address: 'Leeds', dropoff_address: 'York', passenger_count: 1, vehicle_type: '7seater' },
      { path: '/api/public/quotes/estimate' },
    );
    expect(v1Only.statusCode).toBe(400);
    expect(v1Only.json().errors[0].field).toBe('body.vehicle_type');
  });
});

describe('API keys and rate limits', () => {
  it('accepts a key in each of the three headers and rejects an unknown key with 401', async () => {
    const { key } = await createApiKey(stack.sql, { name: `headers-${randomUUID()}` });
    const body = { pickup: 'Leeds', dropoff: 'York', departAt: inAnHour() };
    for (const headers of [
      { 'x-network-taxi-ai-key': key },
      { authorization: `Bearer ${key}` },
      { 'x-api-key': key },
    ] as Record<string, string>[]) {
      expect((await quote(body, { headers })).statusCode).toBe(200);
    }
    const bad = await quote(body, { headers: { 'x-api-key': `${key}x` } });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().code).toBe('invalid_api_key');
    const [row] = await stack.sql`select key_hash from api_keys where key_prefix = ${key.slice(0, 10)}`;
    expect(row?.key_hash).not.toContain(key);
  });

  it('keeps one hourly quote allowance per caller across two API processes, then 429 with Retry-After', async () => {
    // Two processes configured with an allowance of 30 (the default, 300, is sized for a shared address).
    const first = await startStack({ QUOTE_RATE_LIMIT_PER_HOUR: '30' });
    const second = await startStack({ QUOTE_RATE_LIMIT_PER_HOUR: '30' });
    try {
      const ip = freshIp();
      const body = { pickup: 'Leeds', dropoff: 'York', departAt: inAnHour() };
      const call = (app: TestStack['app']) =>
        app.inject({ method: 'POST', url: '/api/public/v1/quote', remoteAddress: ip, payload: body });
      for (let i = 0; i < 15; i++) {
        expect((await call(first.app)).statusCode).toBe(200);
        expect((await call(second.app)).statusCode).toBe(200);
      }
      const limited = await call(second.app);
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(3600);
      expect(limited.json().code).toBe('rate_limited');
      // The simple alias shares the allowance: it is the same pricing path.
      const alias = await first.app.inject({
        method: 'POST',
        url: '/api/public/quotes/estimate',
        remoteAddress: ip,
        payload: { pickup_address: 'Leeds', dropoff_address: 'York', passenger_count: 1 },
      });
      expect(alias.statusCode).toBe(429);
      // Another caller is unaffected.
      expect((await quote(body)).statusCode).toBe(200);
    } finally {
      await second.close();
      await first.close();
    }
  });

  it('does not limit a key marked exempt', async () => {
    const { key } = await createApiKey(stack.sql, { name: 'bench', rateLimitExempt: true });
    const ip = freshIp();
    const body = { pickup: 'Leeds', dropoff: 'York', departAt: inAnHour() };
    const results = [];
    for (let i = 0; i < 32; i++) results.push((await quote(body, { headers: { 'x-api-key': key }, ip })).statusCode);
    expect(results.every((s) => s === 200)).toBe(true);
  });

  it('prices a partner key on its approved rate and names who approved it', async () => {
    const partnerId = `partner-${randomUUID()}`;
    const { key } = await createApiKey(stack.sql, { name: 'partner', partnerId });
    await approveRateOverride(stack.sql, {
      scope: 'partner',
      subjectId: partnerId,
      adjustmentBasisPoints: -1000,
      minimumFarePence: null,
      approvedBy: 'ops@direct-taxi.test',
    });
    const body = { pickup: 'Manchester Piccadilly', dropoff: 'Manchester Airport', departAt: inAnHour() };
    const tariff = (await quote(body)).json();
    const partner = (await quote(body, { headers: { 'x-api-key': key } })).json();
    expect(partner.fare_pence).toBeLessThan(tariff.fare_pence);
    const rule = partner.applied_rules.find((r: { code: string }) => r.code === 'rate_override');
    expect(rule.description).toContain('ops@direct-taxi.test');
  });

  it('prices a larger vehicle higher only under an override approved for that class', async () => {
    const partnerId = `fleet-${randomUUID().slice(0, 8)}`;
    const { key } = await createApiKey(stack.sql, { name: 'executive fleet', partnerId });
    await approveRateOverride(stack.sql, {
      scope: 'partner',
      subjectId: partnerId,
      adjustmentBasisPoints: 2000,
      minimumFarePence: null,
      approvedBy: 'ops@direct-taxi.test',
      vehicleTypes: ['executive'],
    });
    const body = { pickup: 'Manchester Piccadilly', dropoff: 'Manchester Airport', departAt: inAnHour() };
    const saloon = (await quote({ ...body, vehicleType: 'saloon' }, { headers: { 'x-api-key': key } })).json();
    const executive = (await quote({ ...body, vehicleType: 'executive' }, { headers: { 'x-api-key': key } })).json();
    const tariff = (await quote({ ...body, vehicleType: 'executive' })).json();
    expect(saloon.fare_pence).toBe(tariff.fare_pence);
    expect(saloon.applied_rules.some((r: { code: string }) => r.code === 'rate_override')).toBe(false);
    expect(executive.fare_pence).toBeGreaterThan(tariff.fare_pence);
    expect(executive.applied_rules.find((r: { code: string }) => r.code === 'rate_override')?.description).toContain(
      'ops@direct-taxi.test',
    );
  });
});

describe('OpenAPI document and health', () => {
  it('serves a valid OpenAPI 3.1.0 document at both locations listing every configured domain', async () => {
    const a = await stack.app.inject({ method: 'GET', url: '/api/public/openapi.json' });
    const b = await stack.app.inject({ method: 'GET', url: '/api/public/v1/openapi.json' });
    expect(a.statusCode).toBe(200);
    expect(b.json()).toEqual(a.json());
    const doc = a.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.servers.map((s: { url: string }) => s.url)).toEqual([
      stack.config.PUBLIC_BASE_URL,
      'https://taxi.example.com',
      'https://book.example.org',
    ]);
    expect(doc.paths['/api/public/v1/quote'].post.operationId).toBe('estimateFare');
    expect(doc.paths['/api/public/quotes/estimate'].post.operationId).toBe('getTaxiQuote');
    expect(doc.paths['/api/public/bookings/create'].post.operationId).toBe('createTaxiBooking');
    expect(doc.paths['/api/public/bookings/instant'].post.operationId).toBe('createInstantTaxiBooking');
    expect(doc.paths['/api/public/v1/booking'].post.operationId).toBe('createBooking');
    expect(doc.paths['/api/public/v1/booking/{ref}'].get.operationId).toBe('getBooking');
    expect(doc.paths['/api/public/v1/booking/{ref}'].post.operationId).toBe('cancelBooking');
    expect(doc.paths['/api/public/v1/jobs'].post.operationId).toBe('submitPartnerJobs');
    expect(doc.paths['/api/public/v1/operator/jobs'].get.operationId).toBe('getOperatorBridgeGuide');
    expect(doc.paths['/api/public/v1/operator/jobs'].post.operationId).toBe('sendOperatorDispatchJobs');
    // The intake's 207 and its per-job outcomes are part of the contract.
    expect(Object.keys(doc.paths['/api/public/v1/jobs'].post.responses)).toEqual(
      expect.arrayContaining(['200', '207', '400', '401', '403', '429']),
    );
    expect(doc.components.schemas.PartnerJob.required).toEqual(
      expect.arrayContaining(['jobRef', 'pickup', 'dropoff', 'pickupTime']),
    );
    expect(Object.keys(doc.components.schemas.JobResult.properties)).toEqual(
      expect.arrayContaining(['jobRef', 'outcome', 'code', 'bookingReference']),
    );
    // Booking status names are part of the published contract.
    expect(doc.components.schemas.BookingStatus.enum).toEqual([...BOOKING_STATUSES]);
    // So are the precision of a place and the suggestions a 422 offers.
    expect(doc.components.schemas.Precision.enum).toEqual([
      'point',
      'postcode',
      'street',
      'postcode_sector',
      'postcode_district',
      'town_centre',
    ]);
    expect(doc.components.schemas.PlaceSuggestion.required).toEqual(['label', 'kind', 'town', 'precision']);
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('declares error bodies with the media type they are sent with, and keeps query parameter formats', async () => {
    const doc = (await stack.app.inject({ method: 'GET', url: '/api/public/openapi.json' })).json();
    const responses = Object.values(
      doc.paths as Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>,
    )
      .flatMap((ops) => Object.values(ops))
      .flatMap((op) => Object.entries(op.responses));
    const errors = responses.filter(([status]) => Number(status) >= 400);
    expect(errors.length).toBeGreaterThan(20);
    for (const [status, r] of errors)
      expect(Object.keys(r.content ?? {}), status).toEqual(['application/problem+json']);
    // A 204 has no body to declare.
    for (const [status, r] of responses.filter(([s]) => Number(s) < 400)) {
      expect(Object.keys(r.content ?? {}), status).toEqual(status === '204' ? [] : ['application/json']);
    }
    // And what is sent matches what is declared.
    const bad = await quote({ pickup: 'x' });
    expect(bad.headers['content-type']).toMatch(/^application\/problem\+json/);
    const email = doc.paths['/api/public/v1/booking/{ref}'].get.parameters.find(
      (p: { name: string }) => p.name === 'email',
    );
    expect(email).toMatchObject({ in: 'query', schema: { type: 'string', format: 'email' } });
  });

  it('serves a human-readable docs page', async () => {
    const res = await stack.app.inject({ method: 'GET', url: '/api/public/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
  });

  it('is live and ready when Postgres and Temporal answer', async () => {
    expect((await stack.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    const ready = await eventually(async () => {
      const r = await stack.app.inject({ method: 'GET', url: '/readyz' });
      return r.statusCode === 200 ? r.json() : undefined;
    });
    expect(ready).toEqual({ status: 'ready', postgres: 'ok', temporal: 'ok' });
  });
});

/** The next England & Wales bank holiday at 23:30 London time, from the project's own calendar. */
function nextBankHolidayAt2330(): string {
  // Known future holidays in the copied GOV.UK file; the first one at least a day ahead.
  const candidates = ['2026-12-25', '2026-12-28', '2027-04-02', '2027-05-03', '2027-05-31', '2027-08-30', '2027-12-27'];
  const day = candidates.find((d) => Date.parse(`${d}T00:00:00Z`) > Date.now() + 86_400_000);
  if (!day) throw new Error('extend the candidate bank holidays');
  // Winter dates are GMT (UTC+0), summer dates BST (UTC+1).
  const month = Number(day.slice(5, 7));
  const bst = month >= 4 && month <= 9;
  return bst ? `${day}T22:30:00Z` : `${day}T23:30:00Z`;
}
