// Reruns the adversarial figures of issues 20 and 33 against a running service (`npm start`), from
// one address, as an attacker would, and prints each beside what the issue measured before the fix:
//   npx tsx scripts/abuse-check.ts [--url http://localhost:3000]
// Texts are counted in the outbox, so this needs the embedded notifier and the database
// (that of the stack `npm start` runs with the same DATA_DIR, unless DATABASE_URL names another). It makes throwaway passengers,
// one approved driver and about 320 bookings days ahead, all marked "abuse-check" and cancelled at
// the end; nothing is sent.
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import * as oauth from 'oauth4webapi';
import { authorizationRequestUrl, CookieBrowser, interactionUid } from '../dev/oauth-sign-in.js';
import { createApiKey } from '../src/auth/api-keys.js';
import { scriptStack, stackDatabaseOrExit } from '../dev/stack-settings.js';

const { values } = parseArgs({ options: { url: { type: 'string' } } });
const base = (values.url ?? scriptStack().apiUrl).replace(/\/$/, '');
const { sql } = await stackDatabaseOrExit('abuse-check', 2);
const insecure = base.startsWith('http://') ? { [oauth.allowInsecureRequests]: true } : {};
const run = String(Math.floor(Math.random() * 900) + 100);
let serial = 0;
/** A fresh UK mobile in the 07400 range (the national format a person types), and its E.164. */
const mobile = () => {
  const digits = `7400${run}${String(serial++).padStart(3, '0')}`;
  return { typed: `0${digits.slice(0, 4)} ${digits.slice(4)}`, e164: `+44${digits}` };
};
const smsTo = async (phones: string[]) =>
  (
    await sql<
      { n: number }[]
    >`select count(*)::int as n from outbox where channel = 'sms' and recipient in ${sql(phones)}`
  )[0]?.n ?? 0;
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  paced(() =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }),
  );

// An OAuth client, registered as any assistant would (RFC 7591), whose sign-ins the pump goes through.
const issuer = new URL(base);
const as = await oauth.processDiscoveryResponse(
  issuer,
  await paced(() => oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure })),
);
const redirectUri = 'http://127.0.0.1:9/callback';
const client = await oauth.processDynamicClientRegistrationResponse(
  await paced(() =>
    oauth.dynamicClientRegistrationRequest(
      as,
      {
        client_name: 'abuse-check',
        redirect_uris: [redirectUri],
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code'],
      },
      insecure,
    ),
  ),
);
/**
 * The OAuth pages allow OAUTH_RATE_LIMIT_PER_MINUTE requests a minute from one address; an
 * attacker paces himself to it, and so does this script (a 429 there is waited out, not counted).
 */
async function paced(request: () => Promise<Response>): Promise<Response> {
  for (;;) {
    const res = await request();
    if (res.status !== 429 || !(await res.clone().text()).includes('"rate_limited"')) return res;
    await new Promise((r) => setTimeout(r, (Number(res.headers.get('retry-after')) || 5) * 1000));
  }
}

async function signIn(): Promise<{ browser: CookieBrowser; uid: string }> {
  const url = await authorizationRequestUrl({
    endpoint: as.authorization_endpoint!,
    clientId: client.client_id,
    redirectUri,
    resource: `${base}/mcp`,
  });
  for (;;) {
    const browser = new CookieBrowser();
    const { res } = await browser.follow(url);
    const page = await res.text();
    if (res.status !== 429) return { browser, uid: interactionUid(page) };
    await new Promise((r) => setTimeout(r, (Number(res.headers.get('retry-after')) || 5) * 1000));
  }
}
const askCode = async (identifier: string) => {
  const s = await signIn();
  return (await paced(() => s.browser.request(`${base}/oauth/interaction/${s.uid}/code`, { form: { identifier } })))
    .status;
};

const rows: Array<[string, string, string]> = [];

// 1. SMS pumping: codes to 40 distinct new UK numbers, each through a sign-in of its own.
const forty = Array.from({ length: 40 }, mobile);
for (const m of forty) await askCode(m.typed);
rows.push([
  'codes to 40 new UK numbers from one address',
  '60 SMS in 4 s (of 70)',
  `${await smsTo(forty.map((m) => m.e164))} SMS`,
]);

// 2. Numbers outside the served ranges.
const outside = [
  '+44 909 012 3456',
  '+882 345 678901',
  '+44 70 2412 3456',
  '+33 6 12 34 56 78',
  '+1 201 555 0123',
  '0161 496 0000',
];
const outsideE164 = [
  '+449090123456',
  '+882345678901',
  '+447024123456',
  '+33612345678',
  '+12015550123',
  '+441614960000',
];
for (const n of outside) await askCode(n);
rows.push([
  'codes to premium-rate, satellite, personal, foreign and landline numbers',
  'one each',
  `${await smsTo(outsideE164)} SMS`,
]);

// 3. A driver's phone asked for 20 times, anonymously; and what the driver is billed for it.
const driver = mobile();
const driverId = `drv_abuse_${randomUUID().slice(0, 8)}`;
await sql`insert into drivers (id, name, phone, tier, approved, status, vehicle_type, vehicle_description, plate, seats, wheelchair_accessible, online, lat, lon, location_at)
          values (${driverId}, 'abuse-check driver', ${driver.e164}, 'local', true, 'approved', 'saloon', 'Skoda Octavia', 'AB12 USE', 4, false, false, 53.48, -2.24, now())`;
for (let i = 0; i < 20; i++) await post('/api/driver/sign-in', { phone: driver.typed });
const billed =
  (
    await sql<
      { n: number }[]
    >`select count(*)::int as n from outbox where recipient = ${driver.e164} and channel = 'sms' and purpose is distinct from 'sign_in_code'`
  )[0]?.n ?? 0;
rows.push([
  "20 sign-in requests for one driver's phone",
  '60 SMS in 2 s, each billed at 2p',
  `${await smsTo([driver.e164])} SMS, ${billed} billed`,
]);

// 4. Guessing a driver's code: 15 cycles of a new code and five wrong guesses.
let accepted = 0;
let locked = 0;
for (let cycle = 0; cycle < 15; cycle++) {
  await post('/api/driver/sign-in', { phone: driver.typed });
  for (let g = 0; g < 5; g++) {
    const status = (
      await post('/api/driver/sign-in/verify', { phone: driver.typed, code: String(100000 + cycle * 5 + g) })
    ).status;
    if (status === 401) accepted += 1;
    if (status === 429) locked += 1;
  }
}
rows.push([
  '75 wrong guesses in 15 new-code cycles',
  '75 checked, no lockout',
  `${accepted} checked, ${locked} refused while locked`,
]);

// 5. A stranger with the passenger's phone and trip (an airport run at a round time).
const passenger = mobile();
const when = new Date(Date.now() + 48 * 3600_000);
when.setUTCMinutes(0, 0, 0);
const trip = (name: string) => ({
  pickup_address: 'Manchester Piccadilly',
  dropoff_address: 'Manchester Airport',
  passenger_name: name,
  passenger_phone_whatsapp: passenger.e164,
  depart_at: when.toISOString(),
});
const hers = (await (
  await post('/api/public/bookings/instant', trip('abuse-check passenger'), { 'idempotency-key': randomUUID() })
).json()) as { booking_reference?: string };
const his = await post('/api/public/bookings/instant', trip('abuse-check stranger'));
const hisBody = await his.text();
const leaked = (hers.booking_reference && hisBody.includes(hers.booking_reference)) || hisBody.includes('bmt_');
rows.push([
  "a stranger with a passenger's phone and trip",
  'her reference and manage token',
  `${his.status}, ${leaked ? 'her reference or a token LEAKED' : 'neither her reference nor a token'}`,
]);

// 6. Booking texts (issue 33): bookings naming numbers that charge whoever texts or calls them.
const costly = [
  '+44 909 879 0123',
  '+882 345 678901',
  '+44 70 2412 3456',
  '+881 6 1234 5678',
  '+33 6 12 34 56 78',
  '+1 201 555 0123',
];
const costlyE164 = ['+449098790123', '+882345678901', '+447024123456', '+881612345678', '+33612345678', '+12015550123'];
const later = (hours: number) => new Date(Date.now() + hours * 3600_000).toISOString();
const statuses: number[] = [];
const madeRefs: Array<{ ref: string; token: string }> = [];
const book = async (phone: string, hoursAhead: number, headers: Record<string, string> = {}) => {
  const res = await post(
    '/api/public/bookings/instant',
    {
      pickup_address: 'Manchester Piccadilly',
      dropoff_address: 'Manchester Airport',
      passenger_name: 'abuse-check passenger',
      passenger_phone_whatsapp: phone,
      depart_at: later(hoursAhead),
    },
    headers,
  );
  const body = (await res.json()) as { booking_reference?: string; manage_token?: string };
  if (body.booking_reference && body.manage_token)
    madeRefs.push({ ref: body.booking_reference, token: body.manage_token });
  return { status: res.status, ref: body.booking_reference };
};
for (const [i, n] of costly.entries()) statuses.push((await book(n, 60 + i)).status);
rows.push([
  'bookings naming premium-rate, satellite, personal and foreign numbers',
  '9 of 10 texted',
  `${await smsTo(costlyE164)} SMS (answers ${statuses.join(', ')})`,
]);

/** Waits until each booking's "booked" message has been sent or held back by the sending policy. */
async function decided(refs: string[]): Promise<void> {
  const keys = refs.map((r) => `booked:${r}`);
  for (let waited = 0; waited < 120_000; waited += 500) {
    const [row] = await sql<{ n: number }[]>`
      select (select count(*) from outbox where idempotency_key in ${sql(keys)}) + (select count(*) from messages_withheld where idempotency_key in ${sql(keys)}) as n`;
    if (Number(row?.n) >= keys.length) return;
    await new Promise((r) => setTimeout(r, 500));
  }
}

// 7. 300 anonymous bookings in an hour from one address, each to a new UK mobile.
const pumped = Array.from({ length: 290 }, mobile);
const pumpedRefs: string[] = [];
let refusedPump = 0;
for (const [i, m] of pumped.entries()) {
  const { status, ref } = await book(m.typed, 72 + i / 10);
  if (ref) pumpedRefs.push(ref);
  else if (status === 429) refusedPump += 1;
}
await decided(pumpedRefs);
rows.push([
  `${pumped.length} anonymous bookings to new UK mobiles from one address`,
  '330 SMS and 310 emails an hour',
  `${pumpedRefs.length} booked (${refusedPump} refused 429), ${await smsTo(pumped.map((m) => m.e164))} SMS`,
]);

// 8. One plain API key booking one phone 20 times.
const { key } = await createApiKey(sql, { name: `abuse-check-${run}` });
const victim = mobile();
const keyRefs: string[] = [];
for (let i = 0; i < 20; i++) {
  const { ref } = await book(victim.typed, 100 + i, { 'x-api-key': key });
  if (ref) keyRefs.push(ref);
}
await decided(keyRefs);
rows.push([
  'one plain API key booking one phone 20 times',
  '20 texts of 20',
  `${keyRefs.length} booked, ${await smsTo([victim.e164])} SMS`,
]);

// Nothing made here is left to be dispatched: every booking is cancelled by its own manage token.
for (const { ref, token } of madeRefs) {
  await fetch(`${base}/api/public/v1/booking/${ref}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'cancel', token }),
  });
}

await sql.end({ timeout: 5 });
const width = Math.max(...rows.map((r) => r[0].length));
console.log(`${'attack'.padEnd(width)} | before (issues 20, 33)             | now`);
for (const [what, before, now] of rows) console.log(`${what.padEnd(width)} | ${before.padEnd(34)} | ${now}`);
