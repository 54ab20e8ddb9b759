import { describe, expect, it } from 'vitest';
import { signPartnerRequest, verifyPartnerSignature } from '../../../src/partners/signature.js';

// What a partner's signed job delivery must satisfy before anything reads its body.
const NOW = 1_795_000_000;
const BODY = JSON.stringify({ jobRef: 'ACME-1', action: 'new' });
const OLD = 'old-partner-secret-0123456789abcdef';
const NEW = 'new-partner-secret-fedcba9876543210';

describe('partner request signatures', () => {
  it('accepts the body as signed, with either secret while one is rotated', () => {
    for (const secret of [OLD, NEW]) {
      const check = verifyPartnerSignature([OLD, NEW], signPartnerRequest(secret, NOW, BODY), BODY, NOW + 10);
      expect(check).toMatchObject({ ok: true, timestamp: NOW });
    }
    // A sender mid-rotation may sign with both.
    const both = `${signPartnerRequest(OLD, NOW, BODY)},v1=${signPartnerRequest(NEW, NOW, BODY).split('v1=')[1]}`;
    expect(verifyPartnerSignature([NEW], both, BODY, NOW).ok).toBe(true);
  });

  it('refuses a changed body, a retired secret, and a timestamp outside five minutes either way', () => {
    const header = signPartnerRequest(OLD, NOW, BODY);
    expect(verifyPartnerSignature([OLD], header, BODY.replace('ACME-1', 'ACME-2'), NOW)).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifyPartnerSignature([NEW], header, BODY, NOW)).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifyPartnerSignature([OLD], header, BODY, NOW + 301)).toEqual({ ok: false, reason: 'stale' });
    expect(verifyPartnerSignature([OLD], header, BODY, NOW - 301)).toEqual({ ok: false, reason: 'stale' });
    expect(verifyPartnerSignature([OLD], header, BODY, NOW + 300).ok).toBe(true);
  });

  it('refuses malformed headers without throwing', () => {
    for (const header of [undefined, '', 'v1=abc', 't=now,v1=00', `t=${NOW}`, `t=${NOW},v1=${'z'.repeat(64)}`, `t=${NOW},v1=${'0'.repeat(63)}`, 'x'.repeat(5000), '\u0000']) {
      expect(verifyPartnerSignature([OLD], header, BODY, NOW), String(header).slice(0, 20)).toEqual({ ok: false, reason: 'malformed' });
    }
  });

  it('gives the same replay key to the same signed request, and another to a re-signed one', () => {
    const a = verifyPartnerSignature([OLD], signPartnerRequest(OLD, NOW, BODY), BODY, NOW);
    const b = verifyPartnerSignature([OLD], signPartnerRequest(OLD, NOW, BODY), BODY, NOW + 1);
    const c = verifyPartnerSignature([OLD], signPartnerRequest(OLD, NOW + 1, BODY), BODY, NOW + 1);
    if (!a.ok || !b.ok || !c.ok) throw new Error('expected valid signatures');
    expect(a.replayKey).toBe(b.replayKey);
    expect(c.replayKey).not.toBe(a.replayKey);
  });
});
