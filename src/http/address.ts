import { isIPv4, isIPv6 } from 'node:net';

// What one "address" is for every per-address allowance (rate-limit groups, application limits,
// upload slots, sign-in codes, the sending policy): an IPv4 address, or an IPv6 /64. One
// subscriber usually holds a whole /64 (a home router's prefix, a phone's, a VM's), so counting
// single IPv6 addresses would give anyone 2^64 allowances. An IPv4-mapped IPv6 address
// (::ffff:203.0.113.7, how a dual-stack socket reports an IPv4 peer) is that IPv4 address.

/**
 * The address a limit counts: the IPv4 address, or for IPv6 its /64 written as
 * `2001:db8:85a3:12::/64` (the groups without leading zeros, however the address was written).
 * Anything that is not an IP address is returned as it is.
 */
export function addressKey(ip: string): string {
  const bare = ip
    .trim()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/%.*$/, '');
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return ip;
  const groups = ipv6Groups(bare.toLowerCase());
  // ::ffff:0:0/96, dotted or in hex: an IPv4 peer on a dual-stack socket.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [hi = 0, lo = 0] = groups.slice(6);
    return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, an IPv4 tail read as two groups). */
function ipv6Groups(ip: string): number[] {
  const parse = (part: string): number[] => {
    if (part === '') return [];
    return part.split(':').flatMap((g) => {
      if (!g.includes('.')) return [parseInt(g, 16)];
      const [a = 0, b = 0, c = 0, d = 0] = g.split('.').map(Number);
      return [(a << 8) | b, (c << 8) | d];
    });
  };
  const [head = '', tail] = ip.split('::');
  const left = parse(head);
  if (tail === undefined) return left;
  const right = parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}
