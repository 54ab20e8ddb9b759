import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

// Signed requests from partners, operators and suppliers (spec 5: "sign the raw request body with
// HMAC SHA-256; send x-partner and x-signature"; the encoding is ours to state). The encoding:
//
//   x-partner:   <partner id>            (x-operator on the operator bridge)
//   x-signature: t=<unix seconds>,v2=<lowercase hex HMAC-SHA256(secret, "<t>\n<METHOD>\n<target>\n" + raw body bytes)>
//
// <target> is the request target exactly as sent on the request line: the path and the query
// (`/api/public/v1/partner/events?limit=10`). v2 binds the signature to what the request does, so
// a signature made for one request (an empty-body GET, say) cannot be presented with another (the
// empty-body POST that rotates a secret). The body-only form of the spec,
//
//   x-signature: t=<unix seconds>,v1=<lowercase hex HMAC-SHA256(secret, "<t>." + raw body bytes)>
//
// is taken only where a route allows it (the job intake POSTs), and only with a non-empty body:
// there the body alone says what is asked. Both are computed over the bytes received, never over
// text decoded from them (two byte strings can decode to the same text).
//
// Where a route takes the body-only form it also takes spec 5's words read plainly, an HMAC of the
// raw body with no timestamp at all, in the usual encodings:
//
//   x-signature: <lowercase hex HMAC-SHA256(secret, raw body bytes)>
//   x-signature: sha256=<hex ...>
//   x-signature: <base64 ...>          (padded or not; base64url too)
//
// That is what an integrator builds from the spec alone. It is only taken where a request changes
// nothing when it is sent again (the job intake POSTs, idempotent by jobRef: docs/partners.md,
// "Signatures"): an untimestamped signature can be replayed for ever, so it must never be what
// stands between a replay and a change.
//
// The timestamp is inside what is signed, so a captured request cannot be replayed later than the
// tolerance; within it, a request that changes something (any method but GET and HEAD, on a route
// that is not idempotent: auth.ts, `singleUse`) is remembered by its `replayKeys` and a repeat is
// refused. A read is not: sent again, it reads only what its signer may read anyway. A key names the request (signer, time, method, target or route, body digest), never the
// secret or the signature that matched it: while a secret is rotated the sender may send one
// signature per secret (comma separated), and a captured request re-sent with fewer of them is the
// same request.

export const SIGNATURE_TOLERANCE_SECONDS = 5 * 60;
const MAX_HEADER_LENGTH = 1_000;

/** What a signature covers. `target` is the path and query as sent; `body` the bytes as sent. */
export interface SignedRequest {
  method: string;
  target: string;
  body: Buffer;
}

export interface VerifyContext {
  /** The sender the signature claims to be from (lower-cased id): part of the replay key. */
  signer: string;
  /** The route's template (`/api/public/v1/jobs`): what a body-only signature's replay key names. */
  route: string;
  /** May this route take the body-only v1 form? (Only with a non-empty body, whatever this says.) */
  bodyOnly: boolean;
  toleranceSeconds?: number;
}

export type PartnerSignatureCheck =
  /** raw: an untimestamped HMAC of the body (timestamp null, nothing to remember). */
  | { ok: true; timestamp: number | null; form: 'v1' | 'v2' | 'raw'; replayKeys: string[] }
  | { ok: false; reason: 'malformed' | 'stale' | 'mismatch' | 'body_only_not_accepted' };

/** The v2 header for a request: what every sender should send. */
export function signPartnerRequest(
  secret: string,
  timestamp: number,
  r: { method: string; target: string; body?: Buffer | string },
): string {
  return `t=${timestamp},v2=${v2Hmac(secret, timestamp, { method: r.method, target: r.target, body: bytes(r.body) }).toString('hex')}`;
}

/** The plain raw-body HMAC in lowercase hex (spec 5 read literally), taken only on the job intake POSTs. */
export function signPartnerBodyRaw(secret: string, body: Buffer | string): string {
  return rawHmac(secret, bytes(body)).toString('hex');
}

/** The body-only v1 header (spec 5's form), taken only on the job intake POSTs. */
export function signPartnerBody(secret: string, timestamp: number, body: Buffer | string): string {
  return `t=${timestamp},v1=${v1Hmac(secret, timestamp, bytes(body)).toString('hex')}`;
}

export function verifyPartnerSignature(
  secrets: readonly string[],
  header: string | undefined,
  request: SignedRequest,
  nowSeconds: number,
  ctx: VerifyContext,
): PartnerSignatureCheck {
  if (!header || header.length > MAX_HEADER_LENGTH) return { ok: false, reason: 'malformed' };
  const raw = rawSignature(header);
  if (raw) {
    if (!(ctx.bodyOnly && request.body.length > 0)) return { ok: false, reason: 'body_only_not_accepted' };
    const ok = secrets.some((secret) => timingSafeEqual(raw, rawHmac(secret, request.body)));
    return ok ? { ok: true, timestamp: null, form: 'raw', replayKeys: [] } : { ok: false, reason: 'mismatch' };
  }
  let timestamp: number | null = null;
  const presented = { v1: [] as Buffer[], v2: [] as Buffer[] };
  for (const part of header.split(',')) {
    const [k, v] = part.trim().split('=', 2);
    if (k === 't' && v && /^\d{1,12}$/.test(v)) timestamp = Number(v);
    else if ((k === 'v1' || k === 'v2') && v && /^[0-9a-f]{64}$/.test(v)) presented[k].push(Buffer.from(v, 'hex'));
  }
  if (timestamp === null || presented.v1.length + presented.v2.length === 0) return { ok: false, reason: 'malformed' };
  if (Math.abs(nowSeconds - timestamp) > (ctx.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS))
    return { ok: false, reason: 'stale' };

  const t = timestamp;
  // Every presented signature is compared in full and in constant time, against every live secret.
  const matches = (candidates: Buffer[], expected: (secret: string) => Buffer) =>
    candidates.length > 0 &&
    secrets.some((secret) => {
      const e = expected(secret);
      return candidates.some((c) => timingSafeEqual(c, e));
    });
  const v2 = matches(presented.v2, (secret) => v2Hmac(secret, t, request));
  const bodyOnly = ctx.bodyOnly && request.body.length > 0;
  const v1 = bodyOnly && matches(presented.v1, (secret) => v1Hmac(secret, t, request.body));
  if (!v1 && !v2)
    return { ok: false, reason: presented.v2.length === 0 && !bodyOnly ? 'body_only_not_accepted' : 'mismatch' };

  // A request valid in both forms is remembered in both, so neither form of it is taken again.
  const digest = createHash('sha256').update(request.body).digest('hex');
  const key = (...parts: string[]) => createHash('sha256').update(parts.join('\n')).digest('hex');
  const replayKeys = [
    ...(v2 ? [key('v2', ctx.signer, String(t), request.method.toUpperCase(), request.target, digest)] : []),
    // v1 does not cover the target, so its key names the route: a query or an encoding added to a
    // captured body-only request does not make it new.
    ...(v1 ? [key('v1', ctx.signer, String(t), request.method.toUpperCase(), ctx.route, digest)] : []),
  ];
  return { ok: true, timestamp: t, form: v2 ? 'v2' : 'v1', replayKeys };
}

/**
 * An untimestamped signature's 32 bytes, or null when the header is not one: hex (either case,
 * optionally `sha256=`) or base64/base64url (optionally `sha256=`, padded or not). A header with
 * `t=` is never read so.
 */
function rawSignature(header: string): Buffer | null {
  const v = header.trim().replace(/^sha256=/i, '');
  if (/^[0-9a-fA-F]{64}$/.test(v)) return Buffer.from(v, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(v)) {
    const decoded = Buffer.from(v.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    return decoded.length === 32 ? decoded : null;
  }
  return null;
}

const bytes = (body: Buffer | string | undefined): Buffer =>
  Buffer.isBuffer(body) ? body : Buffer.from(body ?? '', 'utf8');

function v2Hmac(secret: string, timestamp: number, r: SignedRequest): Buffer {
  return createHmac('sha256', secret)
    .update(`${timestamp}\n${r.method.toUpperCase()}\n${r.target}\n`, 'utf8')
    .update(r.body)
    .digest();
}

function rawHmac(secret: string, body: Buffer): Buffer {
  return createHmac('sha256', secret).update(body).digest();
}

function v1Hmac(secret: string, timestamp: number, body: Buffer): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(body).digest();
}
