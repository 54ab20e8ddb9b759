// What one "address" is for every per-address allowance (src/http/address.ts).
import { describe, expect, it } from 'vitest';
import { addressKey } from '../../../src/http/address.js';

describe('addressKey', () => {
  it('is the IPv4 address itself, mapped or not, in either notation', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::FFFF:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:cb00:7107')).toBe('203.0.113.7');
    expect(addressKey('0:0:0:0:0:ffff:cb00:7107')).toBe('203.0.113.7');
  });

  it('is the /64 of an IPv6 address, however it is written', () => {
    const key = addressKey('2001:db8:85a3:12::8a2e:370:7334');
    expect(key).toBe('2001:db8:85a3:12::/64');
    expect(addressKey('2001:0db8:85a3:0012:ffff:ffff:ffff:ffff')).toBe(key);
    expect(addressKey('2001:DB8:85A3:12:0:0:0:1')).toBe(key);
    expect(addressKey('[2001:db8:85a3:12::1]')).toBe(key);
    expect(addressKey('2001:db8:85a3:12::1%eth0')).toBe(key);
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('2001:db8:85a3:12::203.0.113.7')).toBe(key);
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    // The next /64 is another address.
    expect(addressKey('2001:db8:85a3:13::1')).not.toBe(key);
  });

  it('leaves what is not an IP address as it is', () => {
    expect(addressKey('unknown')).toBe('unknown');
    expect(addressKey('')).toBe('');
  });
});
