import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  signPartnerBody,
  signPartnerBodyRaw,
  signPartnerRequest,
  verifyPartnerSignature,
  type SignedRequest,
  type VerifyContext,
} from '../../../src/partners/signature.js';

// What a partner's signed request must satisfy before anything reads its body.
const NOW = 1_795_000_000;
const BODY = Buffer.from(JSON.stringify({ jobRef: 'ACME-1', action: 'new' }), 'utf8');
const OLD = 'old-partner-secret-0123456789abcdef';
const NEW = 'new-partner-secret-fedcba9876543210';
const JOBS: SignedRequest = { method: 'POST', target: '/api/public/v1/jobs', body: BODY };
const INTAKE: VerifyContext = { signer: 'acme', route: '/api/public/v1/jobs', bodyOnly: true };
const ROTATE: SignedRequest = {
  method: 'POST',
  target: '/api/public/v1/partner/webhook/secret',
  body: Buffer.alloc(0),
};
const SENDER_ROUTE: VerifyContext = { signer: 'acme', route: '/api/public/v1/partner/webhook/secret', bodyOnly: false };

const sign = (secret: string, r: SignedRequest = JOBS, t = NOW) => signPartnerRequest(secret, t, r);
const values = (header: string) => header.split(',').slice(1).join(',');
const verify = (
  secrets: string[],
  header: string | undefined,
  r: SignedRequest = JOBS,
  now = NOW,
  ctx: VerifyContext = INTAKE,
) => verifyPartnerSignature(secrets, header, r, now, ctx);
function keysOf(check: ReturnType<typeof verify>): string[] {
  if (!check.ok) throw new Error(`expected a valid signature, got ${check.reason}`);
  return check.replayKeys;
}

describe('partner request signatures', () => {
  it('accepts the request as signed (v2), with either secret while one is rotated, or with both', () => {
    for (const secret of [OLD, NEW]) {
      expect(verify([OLD, NEW], sign(secret), JOBS, NOW + 10)).toMatchObject({ ok: true, timestamp: NOW, form: 'v2' });
    }
    expect(verify([NEW], `${sign(OLD)},${values(sign(NEW))}`).ok).toBe(true);
  });

  it('refuses a changed body, a retired secret, and a timestamp outside five minutes either way', () => {
    const header = sign(OLD);
    expect(verify([OLD], header, { ...JOBS, body: Buffer.from(BODY.toString().replace('ACME-1', 'ACME-2')) })).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    expect(verify([NEW], header)).toEqual({ ok: false, reason: 'mismatch' });
    expect(verify([OLD], header, JOBS, NOW + 301)).toEqual({ ok: false, reason: 'stale' });
    expect(verify([OLD], header, JOBS, NOW - 301)).toEqual({ ok: false, reason: 'stale' });
    expect(verify([OLD], header, JOBS, NOW + 300).ok).toBe(true);
  });

  it('covers the method and the target, path and query, as well as the body', () => {
    const list: SignedRequest = {
      method: 'GET',
      target: '/api/public/v1/partner/events?limit=10',
      body: Buffer.alloc(0),
    };
    const header = sign(OLD, list);
    const ctx = { ...SENDER_ROUTE, route: '/api/public/v1/partner/events' };
    expect(verify([OLD], header, list, NOW, ctx).ok).toBe(true);
    for (const other of [
      { ...list, method: 'DELETE' },
      { ...list, target: '/api/public/v1/partner/events?limit=11' },
      { ...list, target: '/api/public/v1/partner/events' },
      ROTATE,
    ]) {
      expect(verify([OLD], header, other, NOW, ctx), `${other.method} ${other.target}`).toEqual({
        ok: false,
        reason: 'mismatch',
      });
    }
  });

  it('takes the body-only v1 form only where the route allows it, and never for an empty body', () => {
    expect(verify([OLD], signPartnerBody(OLD, NOW, BODY))).toMatchObject({ ok: true, form: 'v1' });
    // The finding: an empty-body signature was good for any route, secret rotation included.
    const empty = signPartnerBody(OLD, NOW, '');
    expect(verify([OLD], empty, ROTATE, NOW, SENDER_ROUTE)).toEqual({ ok: false, reason: 'body_only_not_accepted' });
    expect(verify([OLD], empty, { ...JOBS, body: Buffer.alloc(0) })).toEqual({
      ok: false,
      reason: 'body_only_not_accepted',
    });
    expect(verify([OLD], signPartnerBody(OLD, NOW, BODY), { ...ROTATE, body: BODY }, NOW, SENDER_ROUTE)).toEqual({
      ok: false,
      reason: 'body_only_not_accepted',
    });
    // A v2 made for the rotation is good for it.
    expect(verify([OLD], sign(OLD, ROTATE), ROTATE, NOW, SENDER_ROUTE)).toMatchObject({ ok: true, form: 'v2' });
  });

  it("takes spec 5's plain raw-body HMAC in hex, sha256=hex, base64 and base64url, where the body-only form is taken, with any live secret", () => {
    const mac = createHmac('sha256', NEW).update(BODY).digest();
    const forms = [
      signPartnerBodyRaw(NEW, BODY),
      mac.toString('hex').toUpperCase(),
      `sha256=${mac.toString('hex')}`,
      mac.toString('base64'),
      mac.toString('base64').replace(/=+$/, ''),
      `sha256=${mac.toString('base64url')}`,
    ];
    for (const header of forms) {
      expect(verify([OLD, NEW], header), header).toEqual({ ok: true, timestamp: null, form: 'raw', replayKeys: [] });
      // Another body, a retired secret, a route that needs v2, an empty body: refused.
      expect(verify([OLD, NEW], header, { ...JOBS, body: Buffer.from('{}') }), header).toEqual({
        ok: false,
        reason: 'mismatch',
      });
      expect(verify([OLD], header), header).toEqual({ ok: false, reason: 'mismatch' });
      expect(verify([NEW], header, { ...ROTATE, body: BODY }, NOW, SENDER_ROUTE)).toEqual({
        ok: false,
        reason: 'body_only_not_accepted',
      });
    }
    expect(verify([NEW], signPartnerBodyRaw(NEW, ''), { ...JOBS, body: Buffer.alloc(0) })).toEqual({
      ok: false,
      reason: 'body_only_not_accepted',
    });
    // 31 or 33 bytes are no signature.
    expect(verify([NEW], mac.subarray(1).toString('base64'))).toEqual({ ok: false, reason: 'malformed' });
  });

  it('verifies the bytes sent, not text decoded from them', () => {
    // 0xff and 0xfe are both invalid UTF-8: decoded, both become U+FFFD, and the same text.
    const sent = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]);
    const altered = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xfe, 0x22, 0x7d]);
    expect(sent.toString('utf8')).toBe(altered.toString('utf8'));
    const header = sign(OLD, { ...JOBS, body: sent });
    expect(verify([OLD], header, { ...JOBS, body: sent }).ok).toBe(true);
    expect(verify([OLD], header, { ...JOBS, body: altered })).toEqual({ ok: false, reason: 'mismatch' });
    expect(verify([OLD], signPartnerBody(OLD, NOW, sent), { ...JOBS, body: altered })).toEqual({
      ok: false,
      reason: 'mismatch',
    });
  });

  it('refuses malformed headers without throwing', () => {
    for (const header of [
      undefined,
      '',
      'v1=abc',
      't=now,v1=00',
      `t=${NOW}`,
      `t=${NOW},v2=${'z'.repeat(64)}`,
      `t=${NOW},v2=${'0'.repeat(63)}`,
      'x'.repeat(5000),
      '\u0000',
    ]) {
      expect(verify([OLD], header), String(header).slice(0, 20)).toEqual({ ok: false, reason: 'malformed' });
    }
  });

  it('gives a signed request the same replay keys whichever and however many secrets signed it', () => {
    // The finding: during a rotation a request sent with both signatures was taken again with one.
    const both = keysOf(verify([NEW, OLD], `${sign(OLD)},${values(sign(NEW))}`));
    expect(keysOf(verify([NEW, OLD], sign(OLD)))).toEqual(both);
    expect(keysOf(verify([NEW, OLD], sign(NEW)))).toEqual(both);
    expect(keysOf(verify([OLD, NEW], sign(NEW)))).toEqual(both);
    // A request valid in both forms is remembered in both: neither form of it is new later.
    const twoForms = keysOf(verify([OLD], `${sign(OLD)},${values(signPartnerBody(OLD, NOW, BODY))}`));
    expect(twoForms).toHaveLength(2);
    expect(twoForms).toEqual(
      expect.arrayContaining([
        ...keysOf(verify([OLD], sign(OLD))),
        ...keysOf(verify([OLD], signPartnerBody(OLD, NOW, BODY))),
      ]),
    );
    // A body-only signature does not cover the target: a query added to it is the same request.
    expect(
      keysOf(verify([OLD], signPartnerBody(OLD, NOW, BODY), { ...JOBS, target: '/api/public/v1/jobs?again=1' })),
    ).toEqual(keysOf(verify([OLD], signPartnerBody(OLD, NOW, BODY))));
  });

  it('gives another replay key to a re-signed request, another request, or another signer', () => {
    const a = keysOf(verify([OLD], sign(OLD), JOBS, NOW));
    expect(keysOf(verify([OLD], sign(OLD), JOBS, NOW + 1))).toEqual(a);
    expect(keysOf(verify([OLD], sign(OLD, JOBS, NOW + 1), JOBS, NOW + 1))).not.toEqual(a);
    expect(keysOf(verify([OLD], sign(OLD), JOBS, NOW, { ...INTAKE, signer: 'other' }))).not.toEqual(a);
    const events = { method: 'GET', target: '/api/public/v1/partner/events', body: Buffer.alloc(0) };
    const webhook = { method: 'GET', target: '/api/public/v1/partner/webhook', body: Buffer.alloc(0) };
    expect(keysOf(verify([OLD], sign(OLD, events), events, NOW, SENDER_ROUTE))).not.toEqual(
      keysOf(verify([OLD], sign(OLD, webhook), webhook, NOW, SENDER_ROUTE)),
    );
  });
});
