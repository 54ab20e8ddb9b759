// Partner signatures through HTTP on the real stack (issue 20, lower items a and b): a signature
// covers the method, the target and the body bytes (v2); spec 5's body-only forms (v1, and the
// plain raw-body HMAC of issue 22) are taken on the job intake POSTs alone, where a verbatim retry
// is answered with its original outcome; a signed GET may be repeated within its tolerance (it
// changes nothing); any other signed request is taken once however many secrets are live; and a
// request carries one kind of credential.
import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/auth/api-keys.js';
import { signPartnerBody, signPartnerRequest } from '../../src/partners/signature.js';
import { createPartner, issueSigningSecret } from '../../src/partners/store.js';
import { startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => stack?.close());

let n = 0;
const ip = () => `10.91.${Math.floor(n / 250) % 250}.${n++ % 250}`;
const now = () => Math.floor(Date.now() / 1000);
const BASE = Math.floor(Date.now() / 60_000) * 60_000 + 26 * 3600_000;

interface TestPartner {
  id: string;
  key: string;
  secret: string;
}
async function newPartner(): Promise<TestPartner> {
  const id = `sig-${randomUUID().slice(0, 8)}`;
  await createPartner(stack.sql, { id, name: `Partner ${id}`, kind: 'partner', liveIntakeApproved: true });
  const { key } = await createApiKey(stack.sql, { name: id, partnerId: id });
  const secret = await issueSigningSecret(stack.sql, stack.config.PARTNER_SECRETS_KEY, id);
  return { id, key, secret };
}

const job = (jobRef: string) =>
  JSON.stringify({
    jobRef,
    pickup: 'Hexham station',
    dropoff: 'Hexham',
    pickupTime: new Date(BASE).toISOString(),
    passengerName: 'Ada Lovelace',
    passengerPhone: '+447400123456',
  });

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
function send(
  p: TestPartner,
  method: Method,
  url: string,
  signature: string,
  body?: string | Buffer,
  extra: Record<string, string> = {},
) {
  return stack.app.inject({
    method,
    url,
    headers: {
      'x-partner': p.id,
      'x-signature': signature,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...extra,
    },
    ...(body !== undefined ? { payload: body } : {}),
    remoteAddress: ip(),
  });
}
const v2 = (secret: string, method: Method, target: string, body: string | Buffer = '', t = now()) =>
  signPartnerRequest(secret, t, { method, target, body });
/** The signatures' values of a header, to send more than one (one per secret during a rotation). */
const values = (header: string) => header.split(',').slice(1).join(',');

describe('partner signatures', () => {
  it('returns a rotated secret only to a request signed for the rotation: an empty-body signature made for anything else is refused', async () => {
    const p = await newPartner();
    const rotate = '/api/public/v1/partner/webhook/secret';
    // The finding: an empty-body body-only signature rotated the secret and returned it.
    const bodyOnly = await send(p, 'POST', rotate, signPartnerBody(p.secret, now(), ''));
    expect(bodyOnly.statusCode).toBe(401);
    expect(bodyOnly.body).not.toContain('whsec_');
    // A v2 signature made for another empty-body request (reading the registration) is not one for this.
    const forGet = v2(p.secret, 'GET', '/api/public/v1/partner/webhook');
    expect((await send(p, 'GET', '/api/public/v1/partner/webhook', forGet)).statusCode).toBe(200);
    const borrowed = await send(
      p,
      'POST',
      rotate,
      v2(p.secret, 'GET', '/api/public/v1/partner/webhook', '', now() - 1),
    );
    expect(borrowed.statusCode).toBe(401);
    expect(borrowed.body).not.toContain('whsec_');
    const signedForIt = await send(p, 'POST', rotate, v2(p.secret, 'POST', rotate));
    expect(signedForIt.statusCode, signedForIt.body).toBe(200);
    expect(signedForIt.json().signingSecret).toMatch(/^whsec_/);
  });

  it('covers the query: a signed listing presented with another query is refused', async () => {
    const p = await newPartner();
    const t = now();
    const signature = v2(p.secret, 'GET', '/api/public/v1/partner/events?limit=1', '', t);
    expect((await send(p, 'GET', '/api/public/v1/partner/events?limit=50', signature)).statusCode).toBe(401);
    expect((await send(p, 'GET', '/api/public/v1/partner/events?limit=1', signature)).statusCode).toBe(200);
    // A DELETE is no GET.
    expect(
      (
        await send(
          p,
          'DELETE',
          '/api/public/v1/partner/webhook',
          v2(p.secret, 'GET', '/api/public/v1/partner/webhook', '', t),
        )
      ).statusCode,
    ).toBe(401);
  });

  it("takes spec 5's raw-body HMAC as an integrator reads it (hex, sha256=hex, base64) and the body-only form on the job intake POSTs only", async () => {
    const p = await newPartner();
    const hmac = (body: string) => createHmac('sha256', p.secret).update(body).digest();
    const forms = [
      (b: string) => hmac(b).toString('hex'),
      (b: string) => `sha256=${hmac(b).toString('hex')}`,
      (b: string) => hmac(b).toString('base64'),
      (b: string) => signPartnerBody(p.secret, now(), b),
    ];
    for (const [i, sign] of forms.entries()) {
      const body = job(`RAW-${i}`);
      const res = await send(p, 'POST', '/api/public/v1/jobs', sign(body), body);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().results[0].code).toBe('created');
      // Signed with another secret, or over other bytes: refused.
      const other = createHmac('sha256', 'not-the-secret').update(body).digest('hex');
      expect((await send(p, 'POST', '/api/public/v1/jobs', other, body)).statusCode).toBe(401);
      expect((await send(p, 'POST', '/api/public/v1/jobs', sign(body), body.replace('Ada', 'Bob'))).statusCode).toBe(
        401,
      );
    }
    // The booking-status hook and the sender routes need v2: no body-only or raw form there.
    const report = JSON.stringify({ bookingReference: 'TXAAAAAAAA', status: 'accepted' });
    expect(
      (await send(p, 'POST', '/api/public/hooks/booking-status', signPartnerBody(p.secret, now(), report), report))
        .statusCode,
    ).toBe(401);
    expect(
      (await send(p, 'POST', '/api/public/hooks/booking-status', hmac(report).toString('hex'), report)).statusCode,
    ).toBe(401);
    const url = JSON.stringify({ url: 'https://hooks.example.com/taxi' });
    expect(
      (await send(p, 'PUT', '/api/public/v1/partner/webhook', signPartnerBody(p.secret, now(), url), url)).statusCode,
    ).toBe(401);
    expect((await send(p, 'PUT', '/api/public/v1/partner/webhook', hmac(url).toString('hex'), url)).statusCode).toBe(
      401,
    );
    const v2Job = job('BO-2');
    expect(
      (await send(p, 'POST', '/api/public/v1/jobs', v2(p.secret, 'POST', '/api/public/v1/jobs', v2Job), v2Job))
        .statusCode,
    ).toBe(200);
  });

  it('answers a verbatim retry of a signed job request with its original outcome, in every form, and books nothing more', async () => {
    const p = await newPartner();
    const fresh = await issueSigningSecret(stack.sql, stack.config.PARTNER_SECRETS_KEY, p.id, 3600);
    const b1 = job('ROT-1');
    const t1 = now();
    const old1 = signPartnerBody(p.secret, t1, b1);
    const both1 = `${old1},${values(signPartnerBody(fresh, t1, b1))}`;
    const first = await send(p, 'POST', '/api/public/v1/jobs', both1, b1);
    expect(first.statusCode, first.body).toBe(200);
    const ref = first.json().results[0].bookingReference;
    const raw = createHmac('sha256', fresh).update(b1).digest('base64');
    for (const again of [
      both1,
      old1,
      signPartnerBody(fresh, t1, b1),
      v2(fresh, 'POST', '/api/public/v1/jobs', b1),
      raw,
    ]) {
      const res = await send(p, 'POST', '/api/public/v1/jobs', again, b1);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().results[0]).toMatchObject({ outcome: 'accepted', code: 'duplicate', bookingReference: ref });
    }
    const rows = await stack.sql<
      { count: number }[]
    >`select count(*)::int as count from bookings where partner_id = ${p.id}`;
    expect(rows[0]?.count).toBe(1);
  });

  it('takes the same signed GET twice in one second (a read changes nothing), and a state-changing request still once (issue 33)', async () => {
    const p = await newPartner();
    const t = now();
    // Was: 401 then 200 (a later timestamp). A client repeating a read must not be refused.
    for (const target of [
      '/api/public/v1/partner/webhook',
      '/api/public/v1/partner/events?limit=5',
      '/api/partner/invoices',
    ]) {
      const signature = v2(p.secret, 'GET', target, '', t);
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await send(p, 'GET', target, signature)).statusCode);
      expect(statuses, target).toEqual([200, 200, 200]);
    }
    // The timestamp window still holds for a read: a stale signature is refused, however good.
    const stale = v2(p.secret, 'GET', '/api/public/v1/partner/webhook', '', t - 301);
    expect((await send(p, 'GET', '/api/public/v1/partner/webhook', stale)).statusCode).toBe(401);
    // And a read's signature is good for nothing else (v2 covers the method and the target).
    const read = v2(p.secret, 'GET', '/api/public/v1/partner/webhook', '', t);
    expect((await send(p, 'DELETE', '/api/public/v1/partner/webhook', read)).statusCode).toBe(401);
    // What changes something is taken once: deleting the webhook, signed, twice.
    const remove = v2(p.secret, 'DELETE', '/api/public/v1/partner/webhook', '', t);
    expect((await send(p, 'DELETE', '/api/public/v1/partner/webhook', remove)).statusCode).toBe(200);
    expect((await send(p, 'DELETE', '/api/public/v1/partner/webhook', remove)).statusCode).toBe(401);
  });

  it('still takes a signed secret rotation once: a replayed rotation is refused and returns no secret', async () => {
    const p = await newPartner();
    const rotate = '/api/public/v1/partner/webhook/secret';
    const signature = v2(p.secret, 'POST', rotate);
    expect((await send(p, 'POST', rotate, signature)).statusCode).toBe(200);
    const again = await send(p, 'POST', rotate, signature);
    expect(again.statusCode).toBe(401);
    expect(again.body).not.toContain('whsec_');
  });

  it('verifies the bytes sent: a signed body that is not UTF-8 is authenticated, then refused as not JSON', async () => {
    const p = await newPartner();
    const bytes = Buffer.concat([Buffer.from('{"jobRef":"'), Buffer.from([0xff]), Buffer.from('"}')]);
    const res = await send(p, 'POST', '/api/public/v1/jobs', v2(p.secret, 'POST', '/api/public/v1/jobs', bytes), bytes);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe('invalid_json');
    // Signed over text decoded from those bytes instead, it is not the request sent.
    const decoded = await send(
      p,
      'POST',
      '/api/public/v1/jobs',
      v2(p.secret, 'POST', '/api/public/v1/jobs', bytes.toString('utf8'), now() - 1),
      bytes,
    );
    expect(decoded.statusCode).toBe(401);
  });

  it('refuses a request that carries a signature and an API key with 400, whichever is valid', async () => {
    const p = await newPartner();
    const other = await newPartner();
    const body = job('TWO-1');
    const res = await send(p, 'POST', '/api/public/v1/jobs', v2(p.secret, 'POST', '/api/public/v1/jobs', body), body, {
      authorization: `Bearer ${other.key}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('conflicting_credentials');
    const listed = await send(
      p,
      'GET',
      '/api/public/v1/partner/webhook',
      v2(p.secret, 'GET', '/api/public/v1/partner/webhook'),
      undefined,
      { 'x-api-key': p.key },
    );
    expect(listed.statusCode).toBe(400);
    expect(await stack.sql`select 1 from partner_jobs where partner_id in (${p.id}, ${other.id})`).toHaveLength(0);
  });
});
