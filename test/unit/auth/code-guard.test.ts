// Which numbers a one-time code may be texted to (what one "address" is: test/unit/http/address.test.ts).
import { describe, expect, it } from 'vitest';
import { lockSubject, newRecipientLimit, recipientOfSubject, servedMobile } from '../../../src/auth/code-guard.js';

const UK = ['GB', 'GG', 'IM', 'JE'];

describe('servedMobile', () => {
  it('takes mobiles of the UK numbering plan, Channel Islands and Isle of Man included', () => {
    for (const n of ['+447400123456', '+447624123456', '+447911123456'])
      expect(servedMobile(n, UK), n).toEqual({ ok: true });
  });

  it('refuses premium-rate, personal, landline, satellite, invalid and other countries’ numbers', () => {
    for (const n of [
      '+449090123456',
      '+447024123456',
      '+441612345678',
      '+882345678901',
      '+447700900123',
      '+33612345678',
      '+12015550123',
    ]) {
      expect(servedMobile(n, UK).ok, n).toBe(false);
    }
  });

  it('serves another country only when configured to', () => {
    expect(servedMobile('+33612345678', [...UK, 'FR'])).toEqual({ ok: true });
    const refused = servedMobile('+33612345678', UK);
    expect(!refused.ok && refused.reason).toMatch(/the UK/);
  });
});

describe('what ops clear with an identifier (issue 33)', () => {
  it('finds the phone or mailbox whose code allowances belong to each kind of identifier', () => {
    expect(recipientOfSubject(lockSubject.driver('+447400123456'))).toBe('phone:+447400123456');
    expect(recipientOfSubject(lockSubject.passenger('phone', '+447400123456'))).toBe('phone:+447400123456');
    expect(recipientOfSubject(lockSubject.claim('+447400123456'))).toBe('phone:+447400123456');
    expect(recipientOfSubject(lockSubject.passenger('email', 'ada@example.com'))).toBe('email:ada@example.com');
    expect(recipientOfSubject(lockSubject.verify('ada@example.com'))).toBe('email:ada@example.com');
    expect(recipientOfSubject('driver:07400123456')).toBeNull();
    expect(recipientOfSubject('something else')).toBeNull();
  });

  it('leaves codes to new recipients half of the day’s ceiling', () => {
    expect(newRecipientLimit(2000)).toBe(1000);
    expect(newRecipientLimit(5)).toBe(2);
  });
});
