// One credential per request, through HTTP on the real stack (issue 20, lower item c): an API key
// header beside an Authorization header that is not the same key is refused, never resolved by
// quietly using one and ignoring the other; the same key twice is fine; driver and staff bearer
// tokens on their own keep their meaning on their routes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { createStaff } from '../../src/auth/staff.js';
import { createPartner } from '../../src/partners/store.js';
import { startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => stack?.close());

let n = 0;
const ip = () => `10.92.${Math.floor(n / 250) % 250}.${n++ % 250}`;
const get = (url: string, headers: Record<string, string>) =>
  stack.app.inject({ method: 'GET', url, headers, remoteAddress: ip() });
const GUIDE = '/api/public/v1/operator/jobs';

async function partnerKey(id: string): Promise<string> {
  await createPartner(stack.sql, { id, name: `Partner ${id}`, kind: 'partner', liveIntakeApproved: true });
  return (await createApiKey(stack.sql, { name: id, partnerId: id })).key;
}

function expectConflict(res: Awaited<ReturnType<typeof get>>) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json()).toMatchObject({ code: 'conflicting_credentials' });
}

describe('one credential per request', () => {
  it("refuses a valid key beside another party's Bearer token with 400, on public and partner routes alike", async () => {
    const suffix = String(Date.now() % 1_000_000);
    const mine = await partnerKey(`cred-a-${suffix}`);
    const theirs = await partnerKey(`cred-b-${suffix}`);
    // The finding: x-api-key was used and the Bearer ignored.
    expectConflict(await get(GUIDE, { 'x-api-key': mine, authorization: `Bearer ${theirs}` }));
    expectConflict(
      await get(GUIDE, { 'x-network-taxi-ai-key': mine, authorization: 'Bearer some-oauth-access-token' }),
    );
    expectConflict(await get(GUIDE, { 'x-api-key': mine, 'x-network-taxi-ai-key': theirs }));
    expectConflict(
      await get(GUIDE, { 'x-api-key': mine, authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }),
    );
    expectConflict(
      await get('/api/public/v1/partner/webhook', { 'x-api-key': mine, authorization: `Bearer ${theirs}` }),
    );
    const job = await stack.app.inject({
      method: 'POST',
      url: '/api/public/v1/jobs',
      headers: { 'x-api-key': mine, authorization: `Bearer ${theirs}`, 'content-type': 'application/json' },
      payload: JSON.stringify({
        jobRef: 'CRED-1',
        pickup: 'Hexham station',
        dropoff: 'Hexham',
        pickupTime: new Date(Date.now() + 26 * 3600_000).toISOString(),
        passengerName: 'Ada Lovelace',
        passengerPhone: '+447400123456',
      }),
      remoteAddress: ip(),
    });
    expectConflict(job);
    expect(
      await stack.sql`select 1 from partner_jobs where partner_id in (${`cred-a-${suffix}`}, ${`cred-b-${suffix}`})`,
    ).toHaveLength(0);

    // The same key in two of its headers is one credential.
    for (const headers of [
      { 'x-api-key': mine, authorization: `Bearer ${mine}` },
      { 'x-network-taxi-ai-key': mine, 'x-api-key': mine },
      { 'x-api-key': mine },
      { authorization: `Bearer ${mine}` },
    ] as Record<string, string>[]) {
      expect((await get(GUIDE, headers)).statusCode, JSON.stringify(Object.keys(headers))).toBe(200);
    }
    expect(
      (await get('/api/public/v1/partner/webhook', { 'x-api-key': mine, authorization: `bearer ${mine}` })).statusCode,
    ).toBe(200);
  });

  it('keeps driver and staff bearer tokens to their routes, and refuses them beside an API key', async () => {
    const key = (await createApiKey(stack.sql, { name: 'credentials test' })).key;
    const staff = (await createStaff(stack.sql, { name: 'Cred (ops)', role: 'operator' })).key;
    expect((await get('/api/ops/drivers', { authorization: `Bearer ${staff}` })).statusCode).toBe(200);
    expectConflict(await get('/api/ops/drivers', { authorization: `Bearer ${staff}`, 'x-api-key': key }));
    // A driver token that is no session: refused by the driver route itself (its meaning kept), not taken for an API key.
    const driver = await get('/api/driver/me', { authorization: 'Bearer drs_not-a-session' });
    expect(driver.statusCode).toBe(401);
    expect(driver.json().code).toBe('not_signed_in');
    expectConflict(await get('/api/driver/me', { authorization: 'Bearer drs_not-a-session', 'x-api-key': key }));
  });
});
