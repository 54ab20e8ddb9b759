// Callback URLs (where senders' status events are delivered): the rule is a pure function of the
// URL, the addresses its host resolved to and the environment, so every case is checked here
// without DNS. In production only https to public addresses; elsewhere any http(s) host.
import { describe, expect, it } from 'vitest';
import {
  checkCallbackUrl,
  ipv6Bytes,
  isPublicAddress,
  validateCallbackUrl,
} from '../../../src/partners/callback-url.js';

const prod = (url: string, addresses: string[] = ['93.184.215.14']) => checkCallbackUrl(url, addresses, 'production');

describe('callback URL rule', () => {
  it('takes an https URL resolving to public addresses in production, as given', () => {
    expect(prod('https://hooks.example.com/taxi/events?src=dt')).toEqual({
      ok: true,
      url: 'https://hooks.example.com/taxi/events?src=dt',
    });
    expect(
      prod('https://hooks.example.com:8443/x', ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c']).ok,
    ).toBe(true);
  });

  it('refuses http, other schemes, credentials, fragments, spaces and control characters in production', () => {
    expect(prod('http://hooks.example.com/x')).toEqual({ ok: false, reason: 'must use https' });
    for (const url of [
      'ftp://hooks.example.com/x',
      'file:///etc/passwd',
      'gopher://hooks.example.com/',
      'javascript:alert(1)',
    ]) {
      expect(prod(url).ok, url).toBe(false);
    }
    expect(prod('https://user:pass@hooks.example.com/x')).toMatchObject({
      ok: false,
      reason: 'must not contain a user name or password',
    });
    expect(prod('https://hooks.example.com/x#frag')).toMatchObject({
      ok: false,
      reason: 'must not contain a #fragment',
    });
    expect(prod('https://hooks.example.com/a b').ok).toBe(false);
    expect(prod('https://hooks.example.com/\u0000').ok).toBe(false);
    expect(prod('not a url').ok).toBe(false);
    expect(prod(`https://hooks.example.com/${'a'.repeat(2000)}`).ok).toBe(false);
  });

  it('refuses, in production, a host resolving to any private, loopback, link-local or otherwise special address', () => {
    const special = [
      '127.0.0.1',
      '127.255.0.9',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '100.127.255.254',
      '0.0.0.0',
      '224.0.0.1',
      '239.255.255.250',
      '240.0.0.1',
      '255.255.255.255',
      '192.0.2.10',
      '198.51.100.1',
      '203.0.113.5',
      '198.18.0.1',
      '192.0.0.8',
      '192.88.99.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12:3456:789a::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::ffff:7f00:1',
      '64:ff9b::a00:1',
      '2001:db8::1',
      '2002:a00:1::1',
      '2001::1',
      '100::1',
      'fe80::1%eth0',
    ];
    for (const a of special) {
      expect(isPublicAddress(a), a).toBe(false);
      expect(prod('https://hooks.example.com/x', ['93.184.215.14', a]), a).toMatchObject({ ok: false });
    }
    // One bad address among good ones is enough: the connection may use any of them.
    expect(prod('https://hooks.example.com/x', ['93.184.215.14', '10.0.0.1'])).toEqual({
      ok: false,
      reason: 'must resolve only to public addresses (hooks.example.com resolves to 10.0.0.1)',
    });
  });

  it('treats the edges of each range exactly', () => {
    expect(isPublicAddress('172.15.255.255')).toBe(true);
    expect(isPublicAddress('172.32.0.0')).toBe(true);
    expect(isPublicAddress('100.63.255.255')).toBe(true);
    expect(isPublicAddress('100.128.0.0')).toBe(true);
    expect(isPublicAddress('169.253.255.255')).toBe(true);
    expect(isPublicAddress('223.255.255.255')).toBe(true);
    expect(isPublicAddress('8.8.8.8')).toBe(true);
    expect(isPublicAddress('2606:4700:4700::1111')).toBe(true);
    expect(isPublicAddress('2001:4860:4860::8888')).toBe(true);
    expect(isPublicAddress('2003::1')).toBe(true);
    expect(isPublicAddress('not-an-address')).toBe(false);
  });

  it('refuses literal addresses in the URL itself, however they are spelled', () => {
    for (const url of [
      'https://127.0.0.1/x',
      'https://2130706433/x',
      'https://0x7f.1/x',
      'https://[::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://10.0.0.1:8443/',
    ]) {
      // The URL parser turns each spelling into its canonical address; that address is what is checked.
      const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
      expect(checkCallbackUrl(url, [host], 'production').ok, url).toBe(false);
    }
  });

  it('refuses local names and names that resolve to nothing in production', () => {
    expect(prod('https://localhost/x', ['127.0.0.1'])).toMatchObject({
      ok: false,
      reason: 'must not name a local host',
    });
    expect(prod('https://printer.local/x', ['93.184.215.14']).ok).toBe(false);
    expect(prod('https://metadata.google.internal/x', ['93.184.215.14']).ok).toBe(false);
    expect(prod('https://hooks.example.com/x', [])).toMatchObject({
      ok: false,
      reason: 'must name a host that resolves',
    });
  });

  it('allows http and local receivers outside production, and still refuses what is not a URL', () => {
    for (const env of ['development', 'test'] as const) {
      expect(checkCallbackUrl('http://127.0.0.1:4000/hook', ['127.0.0.1'], env)).toEqual({
        ok: true,
        url: 'http://127.0.0.1:4000/hook',
      });
      expect(checkCallbackUrl('http://localhost:4000/hook', [], env).ok).toBe(true);
      expect(checkCallbackUrl('ftp://localhost/hook', [], env)).toEqual({
        ok: false,
        reason: 'must use http or https',
      });
      expect(checkCallbackUrl('http://u:p@localhost/hook', [], env).ok).toBe(false);
    }
  });

  it('resolves names in production only, and checks what they resolve to', async () => {
    const resolved: string[] = [];
    const resolver = (answer: string[]) => async (host: string) => {
      resolved.push(host);
      return answer;
    };
    expect(
      await validateCallbackUrl('https://hooks.example.com/x', 'production', resolver(['93.184.215.14'])),
    ).toMatchObject({ ok: true });
    expect(
      await validateCallbackUrl('https://rebind.example.com/x', 'production', resolver(['169.254.169.254'])),
    ).toMatchObject({ ok: false });
    expect(
      await validateCallbackUrl('https://gone.example.com/x', 'production', () =>
        Promise.reject(new Error('ENOTFOUND')),
      ),
    ).toMatchObject({
      ok: false,
      reason: 'must name a host that resolves',
    });
    // A literal address is checked as it is, without a lookup.
    expect(await validateCallbackUrl('https://[fd00::1]/x', 'production', resolver(['93.184.215.14']))).toMatchObject({
      ok: false,
    });
    expect(await validateCallbackUrl('http://127.0.0.1:9/x', 'development', resolver([]))).toMatchObject({ ok: true });
    expect(resolved).toEqual(['hooks.example.com', 'rebind.example.com']);
  });

  it('reads IPv6 addresses in every spelling', () => {
    expect(ipv6Bytes('::1')).toEqual([...Array(15).fill(0), 1]);
    expect(ipv6Bytes('::ffff:1.2.3.4')).toEqual([...Array(10).fill(0), 0xff, 0xff, 1, 2, 3, 4]);
    expect(ipv6Bytes('1:2:3:4:5:6:7:8')).toEqual([0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8]);
    expect(ipv6Bytes('1:2:3:4:5:6:1.2.3.4')).toEqual([0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 1, 2, 3, 4]);
    expect(ipv6Bytes('2001:db8::')).toEqual([0x20, 0x01, 0x0d, 0xb8, ...Array(12).fill(0)]);
    expect(ipv6Bytes('1::2::3')).toBeNull();
    expect(ipv6Bytes('1:2:3')).toBeNull();
  });
});
