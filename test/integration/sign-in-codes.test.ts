// One-time codes cannot be pumped or guessed (issue 20): only UK mobiles get them, an address, a
// sign-in and a phone each get a few, the day has a ceiling ops hear about, wrong guesses lock the
// phone (not the code) for longer each time, and a driver is never billed for a code. Through the
// real sign-in pages and driver API, with every SMS counted in the outbox.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../dev/free-port.js';
import { createStaff } from '../../src/auth/staff.js';
import { accountFor } from '../../src/passengers/account-store.js';
import { weekSmsCount } from '../../src/billing/subscription-store.js';
import { authorizationRequestUrl, CookieBrowser, interactionUid, pageText, startClientHost, type ClientHost } from '../support/oauth.js';
import { startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let host: ClientHost;
let base: string;
let staffKey: string;

beforeAll(async () => {
  host = await startClientHost();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  // Behind a proxy (as production runs), so each test can come from an address of its own.
  stack = await startStack({ PUBLIC_BASE_URL: base, TRUST_PROXY: 'true', OAUTH_RATE_LIMIT_PER_MINUTE: '1000', DRIVER_RATE_LIMIT_PER_MINUTE: '1000' }, { oauthFetch: host.fetch });
  await stack.app.listen({ port, host: '127.0.0.1' });
  host.publish('pump', {
    client_id: host.metadataClientId('pump'),
    client_name: 'Any Assistant',
    redirect_uris: [host.redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  });
  staffKey = (await createStaff(stack.sql, { name: 'Codes ops', role: 'operator' })).key;
});
afterAll(async () => {
  await stack?.close();
  await host?.close();
});

let addresses = 0;
/** An address of this file's own (TEST-NET-3 and a documentation IPv6 prefix). */
const newAddress = () => `203.0.113.${(addresses++ % 250) + 1}`;
const run = randomUUID().replace(/\D/g, '').padEnd(6, '7').slice(0, 3);
let numbers = 0;
/** A fresh UK mobile, as a passenger types it: national format with a space. */
const ukMobile = () => `07400 ${run}${String(numbers++).padStart(3, '0')}`;
const e164 = (national: string) => `+44${national.replace(/\s/g, '').slice(1)}`;

async function startSignIn(address: string): Promise<{ browser: CookieBrowser; uid: string }> {
  const browser = new CookieBrowser({ 'x-forwarded-for': address });
  const url = await authorizationRequestUrl({ endpoint: `${base}/oauth/authorize`, clientId: host.metadataClientId('pump'), redirectUri: host.redirectUri, resource: `${base}/mcp` });
  const { res } = await browser.follow(url);
  return { browser, uid: interactionUid(await res.text()) };
}

async function askForCode(signIn: { browser: CookieBrowser; uid: string }, identifier: string): Promise<{ status: number; text: string }> {
  const res = await signIn.browser.request(`${base}/oauth/interaction/${signIn.uid}/code`, { form: { identifier } });
  return { status: res.status, text: pageText(await res.text()) };
}

async function codesTo(...phones: string[]): Promise<number> {
  const [row] = await stack.sql<{ n: number }[]>`
    select count(*)::int as n from outbox where recipient in ${stack.sql(phones)} and channel = 'sms' and body like '%sign-in code%'`;
  return row?.n ?? 0;
}

describe('passenger sign-in codes', () => {
  it('texts a code to a UK mobile typed in national format, and nothing to premium-rate, satellite, personal, landline or foreign numbers', async () => {
    const signIn = await startSignIn(newAddress());
    const mobile = ukMobile();
    const sent = await askForCode(signIn, mobile);
    expect(sent.status, sent.text).toBe(200);
    expect(await codesTo(e164(mobile))).toBe(1);

    const refused = ['+44 909 012 3456', '+882 345 678901', '+44 70 2412 3456', '0161 496 0000', '+33 6 12 34 56 78', '+1 201 555 0123'];
    for (const number of refused) {
      const answer = await askForCode(await startSignIn(newAddress()), number);
      expect(answer.status, `${number}: ${answer.text}`).toBe(400);
    }
    const [row] = await stack.sql<{ n: number }[]>`
      select count(*)::int as n from outbox
       where recipient in ('+449090123456', '+882345678901', '+447024123456', '+441614960000', '+33612345678', '+12015550123')`;
    expect(row?.n).toBe(0);
  });

  it('from one address, codes to 40 new numbers give 10 texts however many sign-ins they come through; returning passengers still get theirs', async () => {
    const address = newAddress();
    const phones: string[] = [];
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const phone = ukMobile();
      phones.push(e164(phone));
      statuses.push((await askForCode(await startSignIn(address), phone)).status);
    }
    expect(await codesTo(...phones)).toBe(10);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);

    // A hotel's returning guest, from the same exhausted address, is not locked out.
    const returning = ukMobile();
    await accountFor(stack.sql, { kind: 'phone', value: e164(returning) });
    const answer = await askForCode(await startSignIn(address), returning);
    expect(answer.status, answer.text).toBe(200);
    expect(await codesTo(e164(returning))).toBe(1);
    // Another address is another allowance.
    expect((await askForCode(await startSignIn(newAddress()), ukMobile())).status).toBe(200);
  });

  it('one sign-in sends at most three codes, and one phone gets three an hour', async () => {
    const signIn = await startSignIn(newAddress());
    const phones = [ukMobile(), ukMobile(), ukMobile(), ukMobile()];
    const statuses = [];
    for (const phone of phones) statuses.push((await askForCode(signIn, phone)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);

    const phone = ukMobile();
    const perPhone = [];
    for (let i = 0; i < 5; i++) perPhone.push((await askForCode(await startSignIn(newAddress()), phone)).status);
    expect(perPhone).toEqual([200, 200, 200, 429, 429]);
    expect(await codesTo(e164(phone))).toBe(3);
  });

  it('sends no code to a blocked phone, written any way', async () => {
    const phone = ukMobile();
    const staff = await stack.app.inject({
      method: 'POST',
      url: '/api/ops/passengers',
      headers: { authorization: `Bearer ${staffKey}` },
      payload: { phone: e164(phone), action: 'block', reason: 'fraudulent bookings' },
    });
    expect(staff.statusCode, staff.body).toBe(200);
    const answer = await askForCode(await startSignIn(newAddress()), phone);
    expect(answer.status).toBe(403);
    expect(answer.text).toMatch(/blocked/);
    expect(await codesTo(e164(phone))).toBe(0);
  });

  it('locks the phone after five wrong codes, across new codes, for longer each time', async () => {
    const phone = ukMobile();
    const signIn = await startSignIn(newAddress());
    expect((await askForCode(signIn, phone)).status).toBe(200);
    const guess = async (code: string) =>
      (await signIn.browser.request(`${base}/oauth/interaction/${signIn.uid}/login`, { form: { identifier: phone, code } })).status;
    const wrong = [];
    for (let i = 0; i < 5; i++) wrong.push(await guess(String(100000 + i)));
    expect(wrong).toEqual([401, 401, 401, 401, 429]);
    // The right code waits too, and a new code is not sent while the phone is locked.
    const [row] = await stack.sql<{ body: string }[]>`select body from outbox where recipient = ${e164(phone)} order by id desc limit 1`;
    expect(await guess(/\b(\d{6})\b/.exec(row!.body)![1]!)).toBe(429);
    expect((await askForCode(await startSignIn(newAddress()), phone)).status).toBe(429);
    expect(await codesTo(e164(phone))).toBe(1);
  });
});

describe('driver sign-in codes', () => {
  async function approvedDriver(phone: string): Promise<string> {
    const id = `drv_codes_${randomUUID().slice(0, 8)}`;
    await stack.sql`
      insert into drivers (id, name, phone, tier, approved, status, vehicle_type, vehicle_description, plate, seats, wheelchair_accessible, online, lat, lon, location_at)
      values (${id}, 'Code Driver', ${phone}, 'local', true, 'approved', 'saloon', 'Skoda Octavia', 'CD12 ABC', 4, false, false, 53.48, -2.24, now())`;
    return id;
  }
  const call = (path: string, body: unknown, address = newAddress(), headers: Record<string, string> = {}) =>
    stack.app.inject({ method: 'POST', url: path, payload: body as object, remoteAddress: address, headers });

  it('twenty requests for one driver’s phone send three texts, none billed to the driver, and the answers never say whose phone it is', async () => {
    const phone = e164(ukMobile());
    const driverId = await approvedDriver(phone);
    const statuses = [];
    for (let i = 0; i < 20; i++) statuses.push((await call('/api/driver/sign-in', { phone })).statusCode);
    expect(statuses.slice(0, 3)).toEqual([202, 202, 202]);
    expect(statuses.slice(3).every((s) => s === 429)).toBe(true);
    expect(await codesTo(phone)).toBe(3);

    // A phone that is nobody's answers exactly the same.
    const stranger = e164(ukMobile());
    const strangerStatuses = [];
    for (let i = 0; i < 5; i++) strangerStatuses.push((await call('/api/driver/sign-in', { phone: stranger })).statusCode);
    expect(strangerStatuses).toEqual([202, 202, 202, 429, 429]);
    expect(await codesTo(stranger)).toBe(0);

    // The week's SMS pass-through counts the driver's job texts, never a sign-in code.
    const start = new Date(Date.now() - 3600_000).toISOString();
    const end = new Date(Date.now() + 3600_000).toISOString();
    expect(await weekSmsCount(stack.sql, driverId, start, end)).toBe(0);
    await stack.sql`insert into outbox (idempotency_key, channel, recipient, body, provider, sent_at, purpose)
                    values (${`test-job:${driverId}`}, 'sms', ${phone}, 'New job: test', 'outbox', now(), 'job_card')`;
    expect(await weekSmsCount(stack.sql, driverId, start, end)).toBe(1);
  });

  it('refuses a landline or a premium-rate number with 400 and texts nothing', async () => {
    for (const phone of ['+44 161 496 0000', '+44 909 012 3457']) {
      const res = await call('/api/driver/sign-in', { phone });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().code).toBe('number_not_served');
    }
  });

  it('locks a driver’s phone after five wrong codes across new codes; ops see the lock and lift it; the next lock is twice as long', async () => {
    const phone = e164(ukMobile());
    await approvedDriver(phone);
    const address = newAddress();
    const wrong = async () => (await call('/api/driver/sign-in/verify', { phone, code: '000000' }, address)).statusCode;
    expect((await call('/api/driver/sign-in', { phone }, address)).statusCode).toBe(202);
    expect([await wrong(), await wrong()]).toEqual([401, 401]);
    // A new code does not bring new tries (it did: 75 guesses in 15 cycles).
    expect((await call('/api/driver/sign-in', { phone }, address)).statusCode).toBe(202);
    expect([await wrong(), await wrong(), await wrong()]).toEqual([401, 401, 429]);
    const code = async () => {
      const [m] = await stack.sql<{ body: string }[]>`select body from outbox where recipient = ${phone} order by id desc limit 1`;
      return /\b(\d{6})\b/.exec(m!.body)![1]!;
    };
    const locked = await call('/api/driver/sign-in/verify', { phone, code: await code() }, address);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('sign_in_locked');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(14 * 60);

    type Lockouts = { lockouts: { subject: string; locked_until: string; locks_in_a_row: number; last_address: string | null }[] };
    const ops = async () =>
      (await stack.app.inject({ method: 'GET', url: '/api/ops/sign-in-lockouts', headers: { authorization: `Bearer ${staffKey}` } })).json<Lockouts>();
    const lock = (await ops()).lockouts.find((l) => l.subject === `driver:${phone}`);
    expect(lock?.locks_in_a_row).toBe(1);
    expect(lock?.last_address).toBe(address);
    const firstLockMs = Date.parse(lock!.locked_until) - Date.now();
    expect(firstLockMs).toBeGreaterThan(14 * 60_000);
    expect(firstLockMs).toBeLessThanOrEqual(15 * 60_000);

    // The lock runs out (time moved on by the test: the lock's end put in the past), five more wrong codes lock it for twice as long.
    await stack.sql`update sign_in_lockouts set locked_until = now() - interval '1 second' where subject = ${`driver:${phone}`}`;
    for (let i = 0; i < 4; i++) expect(await wrong()).toBe(401);
    expect(await wrong()).toBe(429);
    const second = (await ops()).lockouts.find((l) => l.subject === `driver:${phone}`);
    expect(second?.locks_in_a_row).toBe(2);
    expect(Date.parse(second!.locked_until) - Date.now()).toBeGreaterThan(29 * 60_000);

    // Ops lift it (the driver called in); the driver signs in with a new code.
    const unlocked = await stack.app.inject({
      method: 'POST',
      url: '/api/ops/sign-in-lockouts/unlock',
      headers: { authorization: `Bearer ${staffKey}` },
      payload: { subject: `driver:${phone}`, reason: 'Driver called; identity checked' },
    });
    expect(unlocked.json()).toEqual({ subject: `driver:${phone}`, unlocked: true });
    expect((await call('/api/driver/sign-in', { phone }, newAddress())).statusCode).toBe(202);
    const ok = await call('/api/driver/sign-in/verify', { phone, code: await code() }, newAddress());
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

describe('the day’s ceiling', () => {
  it('emails ops once at 80 % of the ceiling, stops codes at it with 503, and shows the count on /metrics', async () => {
    const { codesToday } = await import('../../src/auth/code-guard-store.js');
    const already = await codesToday(stack.sql, 'sms');
    // A stack of its own whose ceiling is five more codes than today has sent.
    const capped = await startStack({ SIGN_IN_SMS_PER_DAY: String(already + 5), OPS_ALERT_EMAIL: 'ops-ceiling@example.com' });
    try {
      const statuses = [];
      for (let i = 0; i < 7; i++) {
        const res = await capped.app.inject({ method: 'POST', url: '/api/driver/sign-in', remoteAddress: newAddress(), payload: { phone: e164(ukMobile()) } });
        statuses.push(res.statusCode);
      }
      // Phones that are no driver's cost nothing and take nothing from the ceiling...
      expect(statuses).toEqual([202, 202, 202, 202, 202, 202, 202]);
      // ...so it is spent on real drivers' phones.
      const driverPhones = [];
      for (let i = 0; i < 6; i++) {
        const phone = e164(ukMobile());
        await capped.sql`
          insert into drivers (id, name, phone, tier, approved, status, vehicle_type, vehicle_description, plate, seats, wheelchair_accessible, online, lat, lon, location_at)
          values (${`drv_ceiling_${randomUUID().slice(0, 8)}`}, 'Ceiling Driver', ${phone}, 'local', true, 'approved', 'saloon', 'Skoda', 'CE12 ILN', 4, false, false, 53.48, -2.24, now())`;
        driverPhones.push(phone);
      }
      const driverStatuses = [];
      for (const phone of driverPhones) {
        driverStatuses.push((await capped.app.inject({ method: 'POST', url: '/api/driver/sign-in', remoteAddress: newAddress(), payload: { phone } })).statusCode);
      }
      expect(driverStatuses).toEqual([202, 202, 202, 202, 202, 503]);
      expect(await codesTo(...driverPhones)).toBe(5);
      const alerts = await capped.sql<{ subject: string }[]>`select subject from outbox where recipient = 'ops-ceiling@example.com'`;
      expect(alerts).toHaveLength(1);
      expect(alerts[0]!.subject).toMatch(/80 % of today's ceiling/);

      const metrics = await capped.app.inject({ method: 'GET', url: '/metrics' });
      expect(metrics.body).toMatch(new RegExp(`taxi_sign_in_codes_today\\{channel="sms"\\} ${already + 6}`));
      expect(metrics.body).toMatch(new RegExp(`taxi_sign_in_code_ceiling\\{channel="sms"\\} ${already + 5}`));
    } finally {
      await capped.close();
    }
  });
});
