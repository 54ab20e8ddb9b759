// The booking records a licensing officer is owed (docs/records.md), on the real stack: bookings made,
// accepted, reassigned by ops and cancelled, in Manchester and in Leeds; Manchester's exported for a
// range of London days as CSV and JSON holds every field the Statutory Standards list for every
// booking and nothing of Leeds'; a passenger's name typed as a formula stays text; each export is
// recorded; no record can be changed; and a record past its authority's retention is erased with
// the passenger's personal data, while one whose authority keeps records longer stays.
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { type Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../dev/free-port.js';
import { seriousA11yProblems } from '../support/axe.js';
import { launchChromium } from '../support/browser-stack.js';
import { createStaff } from '../../src/auth/staff.js';
import { deleteExpiredRecords } from '../../src/records/store.js';
import {
  createDriver,
  respond,
  takeDriversOffline,
  waitForJobCard,
  waitForStatus,
  type TestDriver,
} from '../support/drivers.js';
import { eventually, STACK_WAIT_MS, startStack, type TestStack } from '../support/stack.js';

// Manchester Piccadilly: where Manchester's drivers wait (nobody waits in Leeds).
const MANCHESTER = { lat: 53.4774, lon: -2.2309 };

let stack: TestStack;
let staffKey: string;
let adminKey: string;
const drivers: TestDriver[] = [];

let base: string;
/** The first test's bookings, which the console walk finds again. */
const made: { accepted?: string; cancelled?: string } = {};

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  stack = await startStack({ OFFER_TIMEOUT_SECONDS: '60', PUBLIC_BASE_URL: base });
  await stack.app.listen({ port, host: '127.0.0.1' });
  staffKey = (await createStaff(stack.sql, { name: 'Priya (ops)', role: 'operator' })).key;
  adminKey = (await createStaff(stack.sql, { name: 'Sam (admin)', role: 'admin' })).key;
});
afterEach(async () => takeDriversOffline(stack.sql, drivers.splice(0)));
afterAll(async () => stack?.close());

let ipN = 1;
const ip = () => `10.40.${ipN >> 8}.${ipN++ & 255}`;

async function licensedDriver(at: { lat: number; lon: number }, name: string, area: string): Promise<TestDriver> {
  const d = await createDriver(stack.sql, { ...at, name, homeArea: area, tier: 'national' });
  const n = randomUUID().slice(0, 6).toUpperCase();
  await stack.sql`update drivers set driver_licence_number = ${`PH-${n}`}, vehicle_registration = ${`MA${n.slice(0, 2)} ${n.slice(2, 5)}`},
                         licensing_authority = ${area} where id = ${d.id}`;
  drivers.push(d);
  return d;
}

async function book(pickup: string, dropoff: string, passengerName: string): Promise<string> {
  const from = ip();
  const q = await stack.app.inject({
    method: 'POST',
    url: '/api/public/v1/quote',
    remoteAddress: from,
    payload: { pickup, dropoff },
  });
  expect(q.statusCode, q.body).toBe(200);
  const res = await stack.app.inject({
    method: 'POST',
    url: '/api/public/bookings/create',
    remoteAddress: from,
    payload: {
      quote_id: q.json().quote_id,
      passenger_name: passengerName,
      passenger_phone_whatsapp: '07400 123456',
      payment_method: 'cash_to_driver',
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ booking_reference: string }>().booking_reference;
}

const ops = (method: 'GET' | 'POST' | 'PUT', url: string, key = staffKey, payload?: object) =>
  stack.app.inject({
    method,
    url,
    remoteAddress: ip(),
    headers: { authorization: `Bearer ${key}` },
    ...(payload ? { payload } : {}),
  });

const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());

/** CSV as a spreadsheet reads it (quoted cells, doubled quotes, CRLF rows). */
function parseCsv(body: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const text = body.replace(/^\ufeff/, '');
  const endCell = () => {
    row.push(cell);
    cell = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (quoted || (c !== ',' && c !== '\n' && c !== '\r')) {
      cell += c;
    } else if (c === ',') {
      endCell();
    } else if (c === '\n') {
      endCell();
      rows.push(row);
      row = [];
    }
  }
  const [head, ...rest] = rows;
  return rest.map((r) => Object.fromEntries(head!.map((h, i) => [h, r[i] ?? ''])));
}

describe('booking records', () => {
  it("exports one authority's bookings, made, accepted, reassigned and cancelled, with every field and nothing of another's", async () => {
    const first = await licensedDriver(MANCHESTER, 'Imran Shah', 'manchester');
    const accepted = await book('Manchester Piccadilly', '1 Deansgate, Manchester M3 1AZ', 'Zoë Brontë');
    const card = await waitForJobCard(stack.sql, first, accepted);
    expect((await respond(stack.app, card, 'accept')).statusCode).toBe(200);
    await waitForStatus(stack.sql, accepted, 'assigned');

    // Reassigned: ops take the job off the first driver; the second takes it.
    const second = await licensedDriver({ lat: 53.3588, lon: -2.2727 }, 'Grace Okafor', 'manchester');
    const reassigned = await book(
      'Manchester Airport Terminal 2',
      'Manchester Piccadilly',
      '=HYPERLINK("http://x.test","pay")',
    );
    const c1 = await waitForJobCard(stack.sql, second, reassigned);
    expect((await respond(stack.app, c1, 'accept')).statusCode).toBe(200);
    await waitForStatus(stack.sql, reassigned, 'assigned');
    const third = await licensedDriver({ lat: 53.359, lon: -2.273 }, 'Tom Reilly', 'manchester');
    await stack.sql`update drivers set online = false where id = ${second.id}`;
    const rel = await ops('POST', `/api/ops/bookings/${reassigned}/release`, staffKey, { reason: 'car broke down' });
    expect(rel.statusCode, rel.body).toBe(200);
    const c2 = await waitForJobCard(stack.sql, third, reassigned);
    expect((await respond(stack.app, c2, 'accept')).statusCode).toBe(200);
    await eventuallyDriver(reassigned, third.id);

    // Cancelled by ops before anyone took it (nobody is near Leeds yet, so this one in Leeds waits).
    await takeDriversOffline(stack.sql, drivers);
    const cancelled = await book('Manchester Piccadilly', 'Manchester Airport Terminal 1', 'Morag Ross');
    const cx = await ops('POST', `/api/ops/bookings/${cancelled}/cancel`, staffKey, {
      reason: 'passenger phoned to cancel',
    });
    expect(cx.statusCode, cx.body).toBe(200);
    await waitForStatus(stack.sql, cancelled, 'cancelled');
    const leeds = await book('Leeds station', 'Leeds Bradford Airport', 'Leeds Passenger');
    Object.assign(made, { accepted, cancelled });

    const reason = 'PC Smith, Manchester licensing, request 4471';
    const range = `authority=manchester&from=${today()}&to=${today()}`;
    const csv = await ops('GET', `/api/ops/records?${range}&format=csv&reason=${encodeURIComponent(reason)}`);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename="booking-records-manchester-/);
    const rows = parseCsv(csv.body);
    const byRef = new Map(rows.map((r) => [r['Booking ref'], r]));
    expect(byRef.has(leeds)).toBe(false);
    expect(rows.every((r) => r['Licensing authority'] === 'Manchester City Council')).toBe(true);
    for (const ref of [accepted, reassigned, cancelled]) {
      const r = byRef.get(ref)!;
      expect(r, ref).toBeDefined();
      for (const field of [
        'Passenger name',
        'Booking received (London)',
        'How booked',
        'Taken by',
        'Pick-up point',
        'Requested pick-up time (London)',
        'Destination',
        'Fare quoted (GBP)',
        'Outcome',
      ])
        expect(r[field], `${ref} ${field}`).not.toBe('');
      expect(r['Booking received (London)']).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
      expect(r['Fare quoted (GBP)']).toMatch(/^\d+\.\d\d$/);
    }
    const a = byRef.get(accepted)!;
    expect(a['Passenger name']).toBe('Zoë Brontë');
    expect(a['Pick-up point']).toMatch(/Piccadilly/);
    expect(a['How booked']).toBe('online');
    expect(a['Driver name']).toBe('Imran Shah');
    expect(a['Driver licence number']).toMatch(/^PH-/);
    expect(a['Vehicle registration']).toMatch(/^MA/);
    expect(a['Dispatched by']).toBe('automatic dispatch (national drivers)');
    expect(a['Driver allocated (London)']).toMatch(/^\d{4}-/);
    expect(a['Outcome']).toBe('open');
    const r = byRef.get(reassigned)!;
    // A name typed as a formula is text to a spreadsheet.
    expect(r['Passenger name']).toBe(`'=HYPERLINK("http://x.test","pay")`);
    expect(r['Driver name']).toBe('Tom Reilly');
    expect(r['Allocations']).toBe('2');
    expect(r['History (London)']).toMatch(/allocated Grace Okafor .* released Grace Okafor .* allocated Tom Reilly/);
    expect(byRef.get(cancelled)!['Outcome']).toBe('cancelled: passenger phoned to cancel');
    expect(byRef.get(cancelled)!['Driver name']).toBe('');

    const json = await ops('GET', `/api/ops/records?${range}&format=json&reason=${encodeURIComponent(reason)}`);
    expect(json.statusCode).toBe(200);
    const doc = json.json<{ licensing_authority: string; bookings: { ref: string; entries: { kind: string }[] }[] }>();
    expect(doc.licensing_authority).toBe('Manchester City Council');
    expect(doc.bookings.map((b) => b.ref)).toEqual(expect.arrayContaining([accepted, reassigned, cancelled]));
    expect(doc.bookings.map((b) => b.ref)).not.toContain(leeds);
    expect(doc.bookings.find((b) => b.ref === reassigned)!.entries.map((e) => e.kind)).toEqual([
      'allocated',
      'released',
      'allocated',
    ]);

    // Each export is recorded with who and why.
    const log = await ops('GET', '/api/ops/records/authorities');
    expect(log.statusCode).toBe(200);
    const exports = log.json<{ exports: { by: string; reason: string; format: string; area_id: string }[] }>().exports;
    expect(exports.slice(0, 2).map((e) => [e.by, e.reason, e.format, e.area_id])).toEqual([
      ['Priya (ops)', reason, 'json', 'manchester'],
      ['Priya (ops)', reason, 'csv', 'manchester'],
    ]);

    // No record is ever changed, even by the database's own user.
    await expect(
      stack.sql`update booking_records set passenger_name = 'someone else' where ref = ${accepted}`,
    ).rejects.toThrow(/never changed/);
  });

  it('refuses an export without a staff key, a reason, a known authority or sane dates', async () => {
    const none = await stack.app.inject({
      method: 'GET',
      url: `/api/ops/records?authority=manchester&from=${today()}&to=${today()}&reason=officer%20request`,
    });
    expect(none.statusCode).toBe(401);
    const cases: [string, string][] = [
      [`authority=manchester&from=${today()}&to=${today()}`, 'reason'],
      [`authority=atlantis&from=${today()}&to=${today()}&reason=officer%20request`, 'unknown_authority'],
      [`authority=manchester&from=2026-13-01&to=${today()}&reason=officer%20request`, 'invalid_dates'],
      [`authority=manchester&from=2026-02-01&to=2026-01-01&reason=officer%20request`, 'invalid_dates'],
      [`authority=manchester&from=2020-01-01&to=2026-01-01&reason=officer%20request`, 'range_too_long'],
      [`authority=manchester&from=${today()}&to=${today()}&reason=bad%07bell`, 'reason'],
    ];
    for (const [query, problem] of cases) {
      const res = await ops('GET', `/api/ops/records?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.body, query).toContain(problem);
    }
  });

  it("erases a record past its authority's retention with the passenger's data, and keeps one its authority keeps longer", async () => {
    // Leeds keeps records 24 months (an administrator's setting); Manchester the default 12.
    expect((await ops('PUT', '/api/ops/records/retention/leeds', staffKey, { months: 24 })).statusCode).toBe(403);
    const set = await ops('PUT', '/api/ops/records/retention/leeds', adminKey, { months: 24 });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ id: 'leeds', retention_months: 24, retention_set: true });

    const old = (area: string, status: string, monthsAgo: number) => oldBooking(area, status, monthsAgo);
    const gone = await old('manchester', 'completed', 13);
    const keptLeeds = await old('leeds', 'completed', 13);
    const keptYoung = await old('manchester', 'completed', 11);
    const keptOpen = await old('manchester', 'assigned', 13);
    await stack.sql`insert into outbox (idempotency_key, channel, recipient, body, booking_ref, provider)
                    values (${`records-test:${gone}`}, 'sms', '+447400123456', 'Your taxi is booked', ${gone}, 'embedded')`;

    const erased = await deleteExpiredRecords(stack.sql, { now: new Date(), defaultMonths: 12 });
    expect(erased).toContain(gone);
    for (const ref of [keptLeeds, keptYoung, keptOpen]) expect(erased).not.toContain(ref);
    expect(await stack.sql`select 1 from booking_records where ref = ${gone}`).toHaveLength(0);
    expect(await stack.sql`select 1 from booking_record_entries where ref = ${gone}`).toHaveLength(0);
    expect(await stack.sql`select 1 from outbox where booking_ref = ${gone}`).toHaveLength(0);
    const [row] = await stack.sql<
      { passenger_name: string; passenger_phone: string; label: string; pickup_query: string }[]
    >`
      select passenger_name, passenger_phone, pickup ->> 'label' as label, pickup_query from bookings where ref = ${gone}`;
    expect(row).toEqual({ passenger_name: 'erased', passenger_phone: '', label: 'erased', pickup_query: '' });
    for (const ref of [keptLeeds, keptYoung, keptOpen])
      expect(await stack.sql`select 1 from booking_records where ref = ${ref}`, ref).toHaveLength(1);
    // Run again: nothing more to erase, nothing fails.
    expect(await deleteExpiredRecords(stack.sql, { now: new Date(), defaultMonths: 12 })).not.toContain(keptLeeds);
  });
});

describe.skipIf(!existsSync('/usr/bin/chromium') && !process.env.CI)('the records console in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => browser?.close());

  it("shows an authority's records to print, downloads them as CSV, and lists the export", async () => {
    expect(made.accepted, 'the export test ran first').toBeDefined();
    const problems: string[] = [];
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    page.on('pageerror', (err) => problems.push(err.message));
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(msg.text());
    });
    await page.goto(`${base}/ops`);
    await page.click('a[href="/ops/records"]');
    await page.fill('#key', staffKey);
    await page.click('#key-form button[type=submit]');
    await page.waitForSelector('#authority option[value="manchester"]', { state: 'attached' });
    await page.selectOption('#authority', 'manchester');
    // Today is filled in; the reason is asked for before anything is shown.
    await page.click('#show');
    expect(await page.isHidden('#shown')).toBe(true);
    await page.fill('#reason', 'PC Jones, Manchester licensing, visit 12 Dec');
    await page.click('#show');
    const row = page.locator(`#record-rows tr:has-text("${made.accepted}")`);
    await row.waitFor();
    expect(await row.textContent()).toMatch(/Zoë Brontë.*Piccadilly.*£\d+\.\d\d.*Imran Shah, PH-/);
    expect(await page.locator(`#record-rows tr:has-text("${made.cancelled}")`).textContent()).toMatch(
      /cancelled: passenger phoned to cancel/,
    );
    expect(await page.locator('#record-rows tr:has-text("Leeds Passenger")').count()).toBe(0);

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download')]);
    expect(download.suggestedFilename()).toMatch(
      /^booking-records-manchester-\d{4}-\d\d-\d\d-to-\d{4}-\d\d-\d\d\.csv$/,
    );
    const csv = readFileSync(await download.path(), 'utf8');
    expect(parseCsv(csv).find((r) => r['Booking ref'] === made.accepted)?.['Passenger name']).toBe('Zoë Brontë');
    await page.waitForSelector('#export-rows tr:has-text("PC Jones, Manchester licensing, visit 12 Dec")');
    expect(await page.textContent('#count')).toMatch(/^\d+ bookings exported\.$/);
    expect(await page.locator('#retention-rows tr:has-text("Manchester City Council")').textContent()).toMatch(
      /12 months/,
    );
    expect(problems).toEqual([]);

    const signIn = async (p: import('playwright-core').Page) => {
      await p.fill('#key', staffKey);
      await p.click('#key-form button[type=submit]');
    };
    expect(
      await seriousA11yProblems(browser, `${base}/ops/records`, {
        before: signIn,
        ready: '#export-rows tr',
        context: { viewport: { width: 1280, height: 900 } },
      }),
    ).toEqual([]);
    await context.close();
  });
});

async function eventuallyDriver(ref: string, driverId: string): Promise<void> {
  await eventually(
    async () => {
      const [b] = await stack.sql<{ driver_id: string | null }[]>`select driver_id from bookings where ref = ${ref}`;
      return b?.driver_id === driverId ? true : undefined;
    },
    STACK_WAIT_MS,
    `${driverId} holding ${ref}`,
  );
}

/** A booking received months ago (its row written directly: no route backdates a booking). */
async function oldBooking(area: string, status: string, monthsAgo: number): Promise<string> {
  const ref = `TX${randomUUID().replace(/-/g, '').slice(0, 10).toUpperCase()}`;
  const place = stack.sql.json({
    label: '221B Baker Street, London NW1 6XE',
    kind: 'street',
    lat: 51.5237,
    lon: -0.1586,
  });
  await stack.sql`
    insert into bookings (ref, status, source, passenger_name, passenger_phone, payment_method, pickup_query, dropoff_query,
                          pickup, dropoff, pickup_area, pickup_at, passengers, vehicle_type, fare_pence, fare_source,
                          distance_m, duration_s, created_at)
    values (${ref}, ${status}, 'v1_direct', 'Ada Lovelace', '+447400123456', 'cash', '221b baker st', 'kings cross', ${place}, ${place},
            ${area}, now() - make_interval(months => ${monthsAgo}), 1, 'saloon', 2450, 'tariff', 5000, 900,
            now() - make_interval(months => ${monthsAgo}))`;
  return ref;
}
