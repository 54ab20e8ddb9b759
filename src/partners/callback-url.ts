import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import type { Config } from '../config.js';
import { CONTROL_CHARACTER } from '../schemas/common.js';

// Where a sender's status events go. The service makes the request, so a callback URL is a way to
// make it talk to whatever it can reach: in production only https to public addresses, checked
// when the URL is registered and again on every delivery (the name may resolve elsewhere by then).
// Outside production (development, test) any http(s) address is allowed, so a receiver on the same
// machine can be used.

export type DeploymentEnv = Config['NODE_ENV'];

export type CallbackUrlCheck = { ok: true; url: string } | { ok: false; reason: string };

const MAX_URL_LENGTH = 2000;

/** Whether addresses must be public and the scheme https: production only. */
export const strictCallbacks = (env: DeploymentEnv): boolean => env === 'production';

/** The URL's own rules, before any name is resolved. `host` is the hostname without brackets. */
export function parseCallbackUrl(
  input: string,
  env: DeploymentEnv,
): { ok: true; url: URL; host: string } | { ok: false; reason: string } {
  if (input.length > MAX_URL_LENGTH) return { ok: false, reason: `must be at most ${MAX_URL_LENGTH} characters` };
  // Whitespace and control characters would be silently dropped or encoded by the URL parser.
  if (/\s/.test(input) || CONTROL_CHARACTER.test(input))
    return { ok: false, reason: 'must not contain spaces or control characters' };
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { ok: false, reason: 'must be an absolute URL' };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && !strictCallbacks(env))) {
    return { ok: false, reason: strictCallbacks(env) ? 'must use https' : 'must use http or https' };
  }
  // Credentials in a URL end up in logs and listings; receivers authenticate us by the signature.
  if (url.username || url.password) return { ok: false, reason: 'must not contain a user name or password' };
  if (url.hash) return { ok: false, reason: 'must not contain a #fragment' };
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!host) return { ok: false, reason: 'must name a host' };
  if (strictCallbacks(env) && isLocalName(host)) return { ok: false, reason: 'must not name a local host' };
  return { ok: true, url, host };
}

/**
 * The whole rule, as a function of the URL, the addresses its host resolved to (the literal
 * address when the host is one) and the environment: a pure function, tested on its own.
 */
export function checkCallbackUrl(input: string, addresses: readonly string[], env: DeploymentEnv): CallbackUrlCheck {
  const parsed = parseCallbackUrl(input, env);
  if (!parsed.ok) return parsed;
  if (strictCallbacks(env)) {
    if (addresses.length === 0) return { ok: false, reason: 'must name a host that resolves' };
    const refused = addresses.find((a) => !isPublicAddress(a));
    if (refused !== undefined)
      return { ok: false, reason: `must resolve only to public addresses (${parsed.host} resolves to ${refused})` };
  }
  return { ok: true, url: parsed.url.toString() };
}

/** Resolves the host (unless it is an address already) and applies checkCallbackUrl. */
export async function validateCallbackUrl(
  input: string,
  env: DeploymentEnv,
  resolve: (host: string) => Promise<string[]> = resolveHost,
): Promise<CallbackUrlCheck> {
  const parsed = parseCallbackUrl(input, env);
  if (!parsed.ok) return parsed;
  if (!strictCallbacks(env)) return checkCallbackUrl(input, [], env);
  const addresses = isIP(parsed.host) ? [parsed.host] : await resolve(parsed.host).catch(() => [] as string[]);
  return checkCallbackUrl(input, addresses, env);
}

async function resolveHost(host: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) =>
      err ? reject(err) : resolve(addresses.map((a) => a.address)),
    );
  });
}

export class CallbackAddressRefused extends Error {
  override name = 'CallbackAddressRefused';
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http(s).request that refuses, in production, a name resolving to anything but
 * public addresses: the check happens on the very addresses the socket then connects to, so a
 * name that changed its answer since registration (DNS rebinding) cannot slip through.
 */
export function guardedLookup(env: DeploymentEnv) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      if (strictCallbacks(env)) {
        const refused = addresses.find((a) => !isPublicAddress(a.address));
        if (refused)
          return callback(
            new CallbackAddressRefused(`${hostname} resolves to ${refused.address}, which is not a public address`),
            [],
          );
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} did not resolve`), { code: 'ENOTFOUND' }), []);
      return callback(null, first.address, first.family);
    });
  };
}

function isLocalName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return (
    h === 'localhost' ||
    h.endsWith('.localhost') ||
    h.endsWith('.local') ||
    h.endsWith('.internal') ||
    h.endsWith('.home.arpa')
  );
}

// IPv4 ranges that are not the public internet (IANA special-purpose registry): this network,
// private, shared (CGNAT), loopback, link-local, IETF protocol assignments, documentation, 6to4
// relay, benchmarking, multicast, reserved and broadcast.
const IPV4_REFUSED: ReadonlyArray<readonly [string, number]> = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.31.196.0', 24],
  ['192.52.193.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['192.175.48.0', 24],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

// IPv6: only global unicast (2000::/3) can be public, which already leaves out unspecified,
// loopback, IPv4-mapped and -translated, unique-local, link-local and multicast addresses. Inside
// it: IETF protocol assignments (Teredo among them), documentation, and 6to4, which embeds an IPv4
// address that may be a private one.
const IPV6_REFUSED_IN_GLOBAL: ReadonlyArray<readonly [string, number]> = [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
];

/** Whether an address is on the public internet (a literal IPv4 or IPv6 address; anything else: false). */
export function isPublicAddress(address: string): boolean {
  const v = isIP(address);
  if (v === 4) {
    const n = ipv4Number(address);
    return !IPV4_REFUSED.some(([base, bits]) => inPrefix4(n, ipv4Number(base), bits));
  }
  if (v === 6) {
    if (address.includes('%')) return false; // a zone index: link-scoped by definition
    const bytes = ipv6Bytes(address);
    if (!bytes || !inPrefix6(bytes, ipv6Bytes('2000::')!, 3)) return false;
    return !IPV6_REFUSED_IN_GLOBAL.some(([base, bits]) => inPrefix6(bytes, ipv6Bytes(base)!, bits));
  }
  return false;
}

function ipv4Number(a: string): number {
  return a.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function inPrefix4(n: number, base: number, bits: number): boolean {
  const size = 2 ** (32 - bits);
  return Math.floor(n / size) === Math.floor(base / size);
}

/** The 16 bytes of an IPv6 address (with :: and a trailing dotted IPv4 part), or null. */
export function ipv6Bytes(a: string): number[] | null {
  let text = a;
  const tail: number[] = [];
  const dotted = /^(.*:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (dotted) {
    if (isIP(dotted[2]!) !== 4) return null;
    const n = ipv4Number(dotted[2]!);
    tail.push(Math.floor(n / 65536), n % 65536);
    text = dotted[1]!.endsWith('::') ? dotted[1]! : dotted[1]!.slice(0, -1);
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groups = (s: string) =>
    s === '' ? [] : s.split(':').map((g) => (/^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16) : NaN));
  const head = groups(halves[0]!);
  const rest = halves.length === 2 ? groups(halves[1]!) : [];
  const known = head.length + rest.length + tail.length;
  if (halves.length === 1 && known !== 8) return null;
  if (halves.length === 2 && known > 7) return null;
  const words = [...head, ...Array<number>(8 - known).fill(0), ...rest, ...tail];
  if (words.some((w) => Number.isNaN(w))) return null;
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

function inPrefix6(bytes: number[], base: number[], bits: number): boolean {
  for (let i = 0; i < 16 && bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((bytes[i]! & mask) !== (base[i]! & mask)) return false;
  }
  return true;
}
