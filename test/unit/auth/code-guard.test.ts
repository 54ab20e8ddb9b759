// Which numbers a one-time code may be texted to, and what one "address" is for the code limits.
import { describe, expect, it } from 'vitest';
import { addressKey, servedMobile } from '../../../src/auth/code-guard.js';

const UK = ['GB', 'GG', 'IM', 'JE'];

describe('servedMobile', () => {
  it('takes mobiles of the UK numbering plan, Channel Islands and Isle of Man included', () => {
    for (const n of ['+447400123456', '+447624123456', '+447911123456']) expect(servedMobile(n, UK), n).toEqual({ ok: true });
  });

  it('refuses premium-rate, personal, landline, satellite, invalid and other countries’ numbers', () => {
    for (const n of ['+449090123456', '+447024123456', '+441612345678', '+882345678901', '+447700900123', '+33612345678', '+12015550123']) {
      expect(servedMobile(n, UK).ok, n).toBe(false);
    }
  });

  it('serves another country only when configured to', () => {
    expect(servedMobile('+33612345678', [...UK, 'FR'])).toEqual({ ok: true });
    const refused = servedMobile('+33612345678', UK);
    expect(!refused.ok && refused.reason).toMatch(/the UK/);
  });
});

describe('addressKey', () => {
  it('is the IPv4 address itself, mapped or not', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('is the /64 of an IPv6 address, however it is written', () => {
    const key = addressKey('2001:db8:85a3:12::8a2e:370:7334');
    expect(key).toBe('2001:db8:85a3:12::/64');
    expect(addressKey('2001:0db8:85a3:0012:ffff:ffff:ffff:ffff')).toBe(key);
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
  });
});
