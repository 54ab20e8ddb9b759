// One-time codes cannot be pumped or guessed (issue 20), and no stranger can spend them for
// anyone else (issue 33, item 3): only UK mobiles get them; an address, a sign-in, and a phone from
// one address each get a few, so a stranger's address spends its own share of a phone's codes, never
// its owner's; wrong guesses lock the phone (not the code) for the guessing address only, for
// minutes; one address's wrong guesses never refuse a right code to the people behind it; the day
// has a ceiling ops hear about, of which codes to new numbers may spend only half, so a pumping run
// leaves drivers and returning passengers their codes; ops can clear a phone, locks and allowances
// both; and a driver is never billed for a code. Through the real sign-in pages and driver API,
// with every SMS counted in the outbox.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../dev/free-port.js';
import { createStaff } from '../../src/auth/staff.js';
import { codesToday } from '../../src/auth/code-guard-store.js';
import { accountFor } from '../../src/passengers/account-store.js';
import { weekSmsCount } from '../../src/billing/subscription-store.js';
import {
  authorizationRequestUrl,
  CookieBrowser,
  interactionUid,
  pageText,
  startClientHost,
  type ClientHost,
} from '../support/oauth.js';
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
  stack = await startStack(
    {
      PUBLIC_BASE_URL: base,
      TRUST_PROXY: 'true',
      OAUTH_RATE_LIMIT_PER_MINUTE: '1000',
      DRIVER_RATE_LIMIT_PER_MINUTE: '1000',
    },
    { oauthFetch: host.fetch },
  );
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

type SignIn = { browser: CookieBrowser; uid: string; at: string };

/** A passenger's sign-in through an assistant, from this address, on this file's stack (or another's base URL). */
async function startSignIn(address: string, at = base): Promise<SignIn> {
  const browser = new CookieBrowser({ 'x-forwarded-for': address });
  const url = await authorizationRequestUrl({
    endpoint: `${at}/oauth/authorize`,
    clientId: host.metadataClientId('pump'),
    redirectUri: host.redirectUri,
    resource: `${at}/mcp`,
  });
  const { res } = await browser.follow(url);
  return { browser, uid: interactionUid(await res.text()), at };
}

async function askForCode(signIn: SignIn, identifier: string): Promise<{ status: number; text: string }> {
  const res = await signIn.browser.request(`${signIn.at}/oauth/interaction/${signIn.uid}/code`, {
    form: { identifier },
  });
  return { status: res.status, text: pageText(await res.text()) };
}

/** The code typed into the sign-in: a redirect onwards (3xx) when it was right. */
async function typeCode(signIn: SignIn, identifier: string, code: string): Promise<{ status: number; text: string }> {
  const res = await signIn.browser.request(`${signIn.at}/oauth/interaction/${signIn.uid}/login`, {
    form: { identifier, code },
  });
  return { status: res.status, text: pageText(await res.text()) };
}

/** The newest code texted to this E.164 phone. */
async function latestCode(phone: string): Promise<string> {
  const [m] = await stack.sql<
    { body: string }[]
  >`select body from outbox where recipient = ${phone} order by id desc limit 1`;
  return /\b(\d{6})\b/.exec(m!.body)![1]!;
}

async function approvedDriver(phone: string): Promise<string> {
  const id = `drv_codes_${randomUUID().slice(0, 8)}`;
  await stack.sql`
    insert into drivers (id, name, phone, tier, approved, status, vehicle_type, vehicle_description, plate, seats, wheelchair_accessible, online, lat, lon, location_at)
    values (${id}, 'Code Driver', ${phone}, 'local', true, 'approved', 'saloon', 'Skoda Octavia', 'CD12 ABC', 4, false, false, 53.48, -2.24, now())`;
  return id;
}

const staffCall = (method: 'GET' | 'POST', url: string, payload?: object) =>
  stack.app.inject({ method, url, headers: { authorization: `Bearer ${staffKey}` }, ...(payload ? { payload } : {}) });

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

    const refused = [
      '+44 909 012 3456',
      '+882 345 678901',
      '+44 70 2412 3456',
      '0161 496 0000',
      '+33 6 12 34 56 78',
      '+1 201 555 0123',
    ];
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

  it('one sign-in sends at most three codes, and one phone gets three an hour from one address, while another address has its own', async () => {
    const signIn = await startSignIn(newAddress());
    const phones = [ukMobile(), ukMobile(), ukMobile(), ukMobile()];
    const statuses = [];
    for (const phone of phones) statuses.push((await askForCode(signIn, phone)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);

    // One phone gets three an hour from one address, through however many sign-ins...
    const phone = ukMobile();
    const address = newAddress();
    const perPhone = [];
    for (let i = 0; i < 5; i++) perPhone.push(await askForCode(await startSignIn(address), phone));
    expect(perPhone.map((a) => a.status)).toEqual([200, 200, 200, 429, 429]);
    expect(perPhone[3]!.text).toMatch(/Too many codes sent to this phone from this network/);
    expect(await codesTo(e164(phone))).toBe(3);
    // ...and that address's share is its own: the phone's owner, elsewhere, still gets a code.
    expect((await askForCode(await startSignIn(newAddress()), phone)).status).toBe(200);
    expect(await codesTo(e164(phone))).toBe(4);
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

  it('locks the phone after five wrong codes across new codes, for the guessing address only: its owner elsewhere signs in', async () => {
    const phone = ukMobile();
    const stranger = newAddress();
    const signIn = await startSignIn(stranger);
    expect((await askForCode(signIn, phone)).status).toBe(200);
    const guess = async (code: string) => (await typeCode(signIn, phone, code)).status;
    const wrong = [];
    for (let i = 0; i < 5; i++) wrong.push(await guess(String(100000 + i)));
    expect(wrong).toEqual([401, 401, 401, 401, 429]);
    // From that address the right code waits too, and no new code is sent while it is locked there.
    expect(await guess(await latestCode(e164(phone)))).toBe(429);
    expect((await askForCode(await startSignIn(stranger), phone)).status).toBe(429);
    expect(await codesTo(e164(phone))).toBe(1);

    // The phone's owner, from their own address, is not held: a code, and it signs them in.
    const owner = await startSignIn(newAddress());
    expect((await askForCode(owner, phone)).status).toBe(200);
    const signedIn = await typeCode(owner, phone, await latestCode(e164(phone)));
    expect(signedIn.status, signedIn.text).toBeGreaterThanOrEqual(300);
    expect(signedIn.status).toBeLessThan(400);
  });

  it('a right code from a hotel whose address has guessed wrong 50 times still signs its guest in; the address’s blind guesses are refused', async () => {
    const hotel = newAddress();
    // 50 wrong codes from the hotel, at ten phones it never asked a code for.
    for (let p = 0; p < 10; p++) {
      const phone = ukMobile();
      const signIn = await startSignIn(hotel);
      for (let i = 0; i < 5; i++) expect([401, 429]).toContain((await typeCode(signIn, phone, '000000')).status);
    }
    const blind = await typeCode(await startSignIn(hotel), ukMobile(), '000000');
    expect(blind.status).toBe(429);
    expect(blind.text).toMatch(/Too many wrong codes from this network/);

    // A guest behind the same address asks for a code and signs in with it.
    const guest = ukMobile();
    const signIn = await startSignIn(hotel);
    expect((await askForCode(signIn, guest)).status).toBe(200);
    const signedIn = await typeCode(signIn, guest, await latestCode(e164(guest)));
    expect(signedIn.status, signedIn.text).toBeGreaterThanOrEqual(300);
    expect(signedIn.status).toBeLessThan(400);

    // So does a driver behind it.
    const driverPhone = e164(ukMobile());
    await approvedDriver(driverPhone);
    const at = { remoteAddress: hotel };
    expect(
      (await stack.app.inject({ method: 'POST', url: '/api/driver/sign-in', payload: { phone: driverPhone }, ...at }))
        .statusCode,
    ).toBe(202);
    const ok = await stack.app.inject({
      method: 'POST',
      url: '/api/driver/sign-in/verify',
      payload: { phone: driverPhone, code: await latestCode(driverPhone) },
      ...at,
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

describe('driver sign-in codes', () => {
  const call = (path: string, body: unknown, address = newAddress(), headers: Record<string, string> = {}) =>
    stack.app.inject({ method: 'POST', url: path, payload: body as object, remoteAddress: address, headers });

  it('twenty requests from one address for one driver’s phone send three texts, none billed to the driver, and the answers never say whose phone it is', async () => {
    const phone = e164(ukMobile());
    const driverId = await approvedDriver(phone);
    const address = newAddress();
    const statuses = [];
    for (let i = 0; i < 20; i++) statuses.push((await call('/api/driver/sign-in', { phone }, address)).statusCode);
    expect(statuses.slice(0, 3)).toEqual([202, 202, 202]);
    expect(statuses.slice(3).every((s) => s === 429)).toBe(true);
    expect(await codesTo(phone)).toBe(3);

    // A phone that is nobody's answers exactly the same (from an address of its own: the first has
    // spent its hour's ten requests too).
    const stranger = e164(ukMobile());
    const other = newAddress();
    const strangerStatuses = [];
    for (let i = 0; i < 5; i++)
      strangerStatuses.push((await call('/api/driver/sign-in', { phone: stranger }, other)).statusCode);
    expect(strangerStatuses).toEqual([202, 202, 202, 429, 429]);
    expect(await codesTo(stranger)).toBe(0);

    // The week's SMS pass-through counts the driver's job texts, never a sign-in code.
    const start = new Date(Date.now() - 3600_000).toISOString();
    const end = new Date(Date.now() + 3600_000).toISOString();
    expect(await weekSmsCount(stack.sql, driverId, start, end)).toBe(0);
    // (A text about a job of theirs; since issue 33 a job card counts only once its offer is accepted.)
    await stack.sql`insert into outbox (idempotency_key, channel, recipient, body, provider, sent_at)
                    values (${`test-job:${driverId}`}, 'sms', ${phone}, 'Job TX-TEST: the passenger is waiting', 'outbox', now())`;
    expect(await weekSmsCount(stack.sql, driverId, start, end)).toBe(1);
  });

  it('refuses a landline or a premium-rate number with 400 and texts nothing', async () => {
    for (const phone of ['+44 161 496 0000', '+44 909 012 3457']) {
      const res = await call('/api/driver/sign-in', { phone });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().code).toBe('number_not_served');
    }
  });

  it('a stranger who knows a driver’s phone spends only their own address’s codes and locks only their own address, for minutes: the driver signs in', async () => {
    const phone = e164(ukMobile());
    await approvedDriver(phone);
    const stranger = newAddress();
    const asked = [];
    for (let i = 0; i < 5; i++) asked.push(await call('/api/driver/sign-in', { phone }, stranger));
    expect(asked.map((r) => r.statusCode)).toEqual([202, 202, 202, 429, 429]);
    expect(asked[3]!.json().detail).toMatch(/from this network/);

    // Five wrong codes lock the phone for the stranger's address: 15 minutes, then 30, and never longer.
    const wrong = async () => call('/api/driver/sign-in/verify', { phone, code: '000000' }, stranger);
    const lockLengths = [];
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 4; i++) expect((await wrong()).statusCode).toBe(401);
      const locked = await wrong();
      expect(locked.statusCode).toBe(429);
      expect(locked.json().code).toBe('sign_in_locked');
      lockLengths.push(Math.round(Number(locked.headers['retry-after']) / 60));
      // The lock runs out (time moved on by the test: its end put in the past).
      await stack.sql`update sign_in_lockouts set locked_until = now() - interval '1 second' where subject = ${`driver:${phone}`} and address = ${stranger}`;
    }
    expect(lockLengths).toEqual([15, 30, 30]);

    // Meanwhile the driver, from their own address, gets a code and signs in with it.
    const own = newAddress();
    expect((await call('/api/driver/sign-in', { phone }, own)).statusCode).toBe(202);
    const ok = await call('/api/driver/sign-in/verify', { phone, code: await latestCode(phone) }, own);
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('many addresses together send one phone at most SIGN_IN_CODES_PER_RECIPIENT_PER_DAY; an address it signed in from still gets codes, and ops clear the rest', async () => {
    const phone = e164(ukMobile());
    await approvedDriver(phone);
    // The driver signed in once from home.
    const home = newAddress();
    expect((await call('/api/driver/sign-in', { phone }, home)).statusCode).toBe(202);
    expect((await call('/api/driver/sign-in/verify', { phone, code: await latestCode(phone) }, home)).statusCode).toBe(
      200,
    );

    // Strangers from ten addresses spend the rest of the phone's 30 for the day (one address's share is 3 an hour).
    for (let a = 0; a < 10; a++) {
      const address = newAddress();
      for (let i = 0; i < 3; i++)
        if ((await codesTo(phone)) < 30)
          expect((await call('/api/driver/sign-in', { phone }, address)).statusCode).toBe(202);
    }
    expect(await codesTo(phone)).toBe(30);
    const refused = await call('/api/driver/sign-in', { phone }, newAddress());
    expect(refused.statusCode).toBe(429);
    expect(refused.json().detail).toMatch(/today; try again tomorrow, or call us/);
    expect(await codesTo(phone)).toBe(30);

    // From home the driver still gets a code.
    expect((await call('/api/driver/sign-in', { phone }, home)).statusCode).toBe(202);
    expect(await codesTo(phone)).toBe(31);

    // On the road, the driver calls ops, who clear the phone's allowances: a code at once, from anywhere.
    const cleared = await staffCall('POST', '/api/ops/sign-in-lockouts/unlock', {
      subject: `driver:${phone}`,
      reason: 'Driver called from the road; identity checked',
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json()).toMatchObject({ subject: `driver:${phone}`, unlocked: true, locks_cleared: 0 });
    expect(cleared.json().allowances_cleared).toBeGreaterThan(10);
    const road = newAddress();
    expect((await call('/api/driver/sign-in', { phone }, road)).statusCode).toBe(202);
    expect((await call('/api/driver/sign-in/verify', { phone, code: await latestCode(phone) }, road)).statusCode).toBe(
      200,
    );
    const actions = await stack.sql<{ reason: string; details: { allowances_cleared: number } }[]>`
      select reason, details from staff_actions where action = 'sign_in.unlock' and subject_id = ${`driver:${phone}`}`;
    expect(actions).toHaveLength(1);
    expect(actions[0]!.reason).toBe('Driver called from the road; identity checked');
    expect(actions[0]!.details.allowances_cleared).toBeGreaterThan(10);

    // Nothing to clear: answered false, and nothing recorded.
    const nothing = await staffCall('POST', '/api/ops/sign-in-lockouts/unlock', {
      subject: `driver:${e164(ukMobile())}`,
      reason: 'Checking',
    });
    expect(nothing.json()).toMatchObject({ unlocked: false, locks_cleared: 0, allowances_cleared: 0 });
    expect(
      await stack.sql`select 1 from staff_actions where action = 'sign_in.unlock' and reason = 'Checking'`,
    ).toHaveLength(0);
  });

  it('ops see a lock with the address it holds, and clearing it lets that address sign in at once', async () => {
    const phone = e164(ukMobile());
    await approvedDriver(phone);
    const address = newAddress();
    const wrong = async () => (await call('/api/driver/sign-in/verify', { phone, code: '000000' }, address)).statusCode;
    expect((await call('/api/driver/sign-in', { phone }, address)).statusCode).toBe(202);
    expect([await wrong(), await wrong()]).toEqual([401, 401]);
    // A new code does not bring new tries (it did: 75 guesses in 15 cycles).
    expect((await call('/api/driver/sign-in', { phone }, address)).statusCode).toBe(202);
    expect([await wrong(), await wrong(), await wrong()]).toEqual([401, 401, 429]);
    const locked = await call('/api/driver/sign-in/verify', { phone, code: await latestCode(phone) }, address);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('sign_in_locked');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(14 * 60);

    type Lockouts = {
      lockouts: {
        subject: string;
        address: string;
        locked_until: string;
        locks_in_a_row: number;
        last_address: string | null;
      }[];
    };
    const lock = (await staffCall('GET', '/api/ops/sign-in-lockouts'))
      .json<Lockouts>()
      .lockouts.find((l) => l.subject === `driver:${phone}`);
    expect(lock).toMatchObject({ address, last_address: address, locks_in_a_row: 1 });
    const lockMs = Date.parse(lock!.locked_until) - Date.now();
    expect(lockMs).toBeGreaterThan(14 * 60_000);
    expect(lockMs).toBeLessThanOrEqual(15 * 60_000);

    // The driver called in: ops clear it, recorded, and the driver signs in from the same address.
    const unlocked = await staffCall('POST', '/api/ops/sign-in-lockouts/unlock', {
      subject: `driver:${phone}`,
      reason: 'Driver called; identity checked',
    });
    expect(unlocked.json()).toMatchObject({ subject: `driver:${phone}`, unlocked: true, locks_cleared: 1 });
    expect(unlocked.json().allowances_cleared).toBeGreaterThan(0);
    expect(
      (await staffCall('GET', '/api/ops/sign-in-lockouts'))
        .json<Lockouts>()
        .lockouts.some((l) => l.subject === `driver:${phone}`),
    ).toBe(false);
    expect((await call('/api/driver/sign-in', { phone }, address)).statusCode).toBe(202);
    const ok = await call('/api/driver/sign-in/verify', { phone, code: await latestCode(phone) }, address);
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

describe('the day’s ceiling', () => {
  it('204 addresses spending the new-number share leave approved drivers and returning passengers their codes; ops hear once', async () => {
    // Today's count so far is shared with every file that ran before: a stack of its own whose
    // ceiling leaves new numbers exactly 100 more codes (half of it), and known recipients the rest.
    const already = await codesToday(stack.sql, 'sms');
    const ceiling = 2 * (already + 100);
    const port = await freePort();
    const at = `http://127.0.0.1:${port}`;
    const capped = await startStack(
      {
        PUBLIC_BASE_URL: at,
        TRUST_PROXY: 'true',
        OAUTH_RATE_LIMIT_PER_MINUTE: '1000',
        DRIVER_RATE_LIMIT_PER_MINUTE: '1000',
        SIGN_IN_SMS_PER_DAY: String(ceiling),
        OPS_ALERT_EMAIL: 'ops-new-share@example.com',
      },
      { oauthFetch: host.fetch },
    );
    await capped.app.listen({ port, host: '127.0.0.1' });
    try {
      // A pumping run: 204 addresses, each asking codes for new numbers.
      const phones: string[] = [];
      const answers: { status: number; text: string }[] = [];
      for (let a = 0; a < 204; a++) {
        const signIn = await startSignIn(`198.51.100.${a + 1}`, at);
        const phone = ukMobile();
        phones.push(e164(phone));
        answers.push(await askForCode(signIn, phone));
      }
      expect(answers.filter((r) => r.status === 200)).toHaveLength(100);
      const paused = answers.filter((r) => r.status === 503);
      expect(paused).toHaveLength(104);
      expect(paused[0]!.text).toMatch(/We cannot send codes right now/);
      expect(await codesTo(...phones)).toBe(100);
      // Refused requests counted nothing: the reserve is whole.
      expect(await codesToday(stack.sql, 'sms')).toBe(already + 100);
      const alerts = await stack.sql<
        { subject: string }[]
      >`select subject from outbox where recipient = 'ops-new-share@example.com'`;
      expect(alerts.map((a) => a.subject)).toEqual(['Sign-in sms codes to new numbers paused for today']);

      // An approved driver still signs in.
      const driverPhone = e164(ukMobile());
      await approvedDriver(driverPhone);
      const driverAddress = newAddress();
      const asked = await capped.app.inject({
        method: 'POST',
        url: '/api/driver/sign-in',
        remoteAddress: driverAddress,
        payload: { phone: driverPhone },
      });
      expect(asked.statusCode, asked.body).toBe(202);
      const verified = await capped.app.inject({
        method: 'POST',
        url: '/api/driver/sign-in/verify',
        remoteAddress: driverAddress,
        payload: { phone: driverPhone, code: await latestCode(driverPhone) },
      });
      expect(verified.statusCode, verified.body).toBe(200);
      // A phone that is nobody's is answered as the driver's was.
      expect(
        (
          await capped.app.inject({
            method: 'POST',
            url: '/api/driver/sign-in',
            remoteAddress: newAddress(),
            payload: { phone: e164(ukMobile()) },
          })
        ).statusCode,
      ).toBe(202);

      // A returning passenger still gets a code and signs in; a new number still does not.
      const returning = ukMobile();
      await accountFor(stack.sql, { kind: 'phone', value: e164(returning) });
      const signIn = await startSignIn(newAddress(), at);
      const sent = await askForCode(signIn, returning);
      expect(sent.status, sent.text).toBe(200);
      const signedIn = await typeCode(signIn, returning, await latestCode(e164(returning)));
      expect(signedIn.status, signedIn.text).toBeGreaterThanOrEqual(300);
      expect(signedIn.status).toBeLessThan(400);
      expect((await askForCode(await startSignIn(newAddress(), at), ukMobile())).status).toBe(503);
      expect(await codesToday(stack.sql, 'sms')).toBe(already + 102);

      const ops = await capped.app.inject({
        method: 'GET',
        url: '/api/ops/sign-in-lockouts',
        headers: { authorization: `Bearer ${staffKey}` },
      });
      expect(ops.json()).toMatchObject({
        daily_ceiling: { sms: ceiling },
        new_recipient_limit: { sms: already + 100 },
      });
    } finally {
      await capped.close();
    }
  });

  it('emails ops once at 80 % of the ceiling, stops codes at it with 503 for drivers and for any phone alike, and shows the count on /metrics', async () => {
    const already = await codesToday(stack.sql, 'sms');
    // A stack of its own whose ceiling is five more codes than today has sent.
    const capped = await startStack({
      SIGN_IN_SMS_PER_DAY: String(already + 5),
      OPS_ALERT_EMAIL: 'ops-ceiling@example.com',
    });
    try {
      const statuses = [];
      for (let i = 0; i < 7; i++) {
        const res = await capped.app.inject({
          method: 'POST',
          url: '/api/driver/sign-in',
          remoteAddress: newAddress(),
          payload: { phone: e164(ukMobile()) },
        });
        statuses.push(res.statusCode);
      }
      // Phones that are no driver's cost nothing and take nothing from the ceiling...
      expect(statuses).toEqual([202, 202, 202, 202, 202, 202, 202]);
      // ...so it is spent on real drivers' phones.
      const driverPhones = [];
      for (let i = 0; i < 6; i++) {
        const phone = e164(ukMobile());
        await approvedDriver(phone);
        driverPhones.push(phone);
      }
      const driverStatuses = [];
      for (const phone of driverPhones) {
        driverStatuses.push(
          (
            await capped.app.inject({
              method: 'POST',
              url: '/api/driver/sign-in',
              remoteAddress: newAddress(),
              payload: { phone },
            })
          ).statusCode,
        );
      }
      expect(driverStatuses).toEqual([202, 202, 202, 202, 202, 503]);
      expect(await codesTo(...driverPhones)).toBe(5);
      // At the ceiling a phone that is nobody's is paused too: the answer still says nothing of whose it is.
      expect(
        (
          await capped.app.inject({
            method: 'POST',
            url: '/api/driver/sign-in',
            remoteAddress: newAddress(),
            payload: { phone: e164(ukMobile()) },
          })
        ).statusCode,
      ).toBe(503);
      const alerts = await capped.sql<
        { subject: string }[]
      >`select subject from outbox where recipient = 'ops-ceiling@example.com'`;
      expect(alerts).toHaveLength(1);
      expect(alerts[0]!.subject).toMatch(/80 % of today's ceiling/);

      // Only what was sent is counted.
      const metrics = await capped.app.inject({ method: 'GET', url: '/metrics' });
      expect(metrics.body).toMatch(new RegExp(`taxi_sign_in_codes_today\\{channel="sms"\\} ${already + 5}`));
      expect(metrics.body).toMatch(new RegExp(`taxi_sign_in_code_ceiling\\{channel="sms"\\} ${already + 5}`));
    } finally {
      await capped.close();
    }
  });
});
