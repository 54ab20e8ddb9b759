import type { FastifyRequest } from 'fastify';
import type { ApiKeyStore } from '../auth/api-keys.js';
import { ProblemError } from '../http/problem.js';
import type { Services } from '../services.js';
import { SIGNATURE_TOLERANCE_SECONDS, verifyPartnerSignature } from './signature.js';
import { activeSigningSecrets, findPartner, rememberSignature, type Partner, type PartnerKind } from './store.js';

// Who sent a job: a partner, operator or supplier, by API key or by signature (spec 5). A refused
// credential is one 401 whatever was wrong (no such sender, bad key, bad, stale or replayed
// signature); the reason goes to the log, never to the caller. A request carrying two kinds of
// credential (a signature and an API key, say) is refused with 400: one of them would be ignored,
// and the sender could not tell which.

export interface SenderCredentials {
  /** The kinds of sender this intake takes. */
  kinds: readonly PartnerKind[];
  /** Headers naming the signer, in order (x-partner; x-operator for the operator bridge). */
  idHeaders: readonly string[];
  /** A shared-secret header this intake also takes (x-supplier-a-secret), checked like an API key. */
  secretHeader?: string;
  /**
   * Does this route take the body-only v1 signature (spec 5's form)? Only the job intake POSTs,
   * whose body says everything the request does; every other signed route needs v2, which also
   * covers the method and the target (signature.ts).
   */
  bodyOnlySignatures?: boolean;
  /**
   * Is sending this POST again harmless (the job intake POSTs, idempotent by jobRef)? Then a
   * repeated signed request is answered like any retry, with its original outcome. A GET or HEAD
   * always is (it changes nothing, and a replay reads only what the signer may read anyway); any
   * other signed request (a secret rotation, an event replay, a webhook change) is accepted once.
   */
  idempotent?: boolean;
  keys: ApiKeyStore;
}

/** Methods that change nothing (RFC 9110, 9.2.1): a signed one is not single-use. */
const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** Is a signed request with this method, on this route, accepted once only? */
export function singleUse(method: string, c: Pick<SenderCredentials, 'idempotent'>): boolean {
  return !c.idempotent && !SAFE_METHODS.has(method.toUpperCase());
}

export async function authenticateSender(
  s: Pick<Services, 'sql' | 'config'>,
  request: FastifyRequest,
  rawBody: Buffer,
  c: SenderCredentials,
): Promise<Partner> {
  const refuse = (reason: string): never => {
    request.log.warn({ reason }, 'sender credentials refused');
    throw new ProblemError(401, 'invalid_credentials', 'Missing or invalid credentials.', {
      headers: { 'www-authenticate': 'Bearer' },
    });
  };
  const header = (name: string): string | undefined => {
    const v = request.headers[name];
    return typeof v === 'string' ? v : undefined;
  };
  let partnerId: string;

  const signature = header('x-signature');
  const secret = c.secretHeader ? header(c.secretHeader) : undefined;
  if ([signature !== undefined, secret !== undefined, request.caller.kind === 'key'].filter(Boolean).length > 1) {
    throw new ProblemError(
      400,
      'conflicting_credentials',
      'Send one credential: an API key, a shared secret or a signature, not several.',
    );
  }
  if (signature !== undefined) {
    const id = c.idHeaders.map(header).find((v) => v !== undefined);
    if (!id) return refuse('signature without a sender id');
    const signer = id.trim().toLowerCase();
    const secrets = await activeSigningSecrets(s.sql, s.config.PARTNER_SECRETS_KEY, signer).catch(() => [] as string[]);
    const check = verifyPartnerSignature(
      secrets,
      signature,
      { method: request.method, target: request.url, body: rawBody },
      Math.floor(Date.now() / 1000),
      { signer, route: request.routeOptions.url ?? request.url, bodyOnly: c.bodyOnlySignatures ?? false },
    );
    if (!check.ok) return refuse(`signature ${check.reason}`);
    // Only what changes something is taken once; a read (or an idempotent intake POST) may be sent
    // again within the timestamp's tolerance, as a client's legitimate repeat is.
    // Kept for twice the tolerance: a timestamp can be that far from a signature's first sighting.
    if (
      singleUse(request.method, c) &&
      !(await rememberSignature(s.sql, check.replayKeys, SIGNATURE_TOLERANCE_SECONDS * 2))
    )
      return refuse('signature replayed');
    partnerId = signer;
  } else if (secret !== undefined) {
    const key = await c.keys.verify(secret.trim());
    if (!key?.partnerId) return refuse('shared secret not valid');
    partnerId = key.partnerId;
  } else if (request.caller.kind === 'key') {
    // The caller plugin has already refused an invalid key with 401.
    if (!request.caller.key.partnerId) return refuse('an API key that belongs to no partner');
    partnerId = request.caller.key.partnerId;
  } else {
    return refuse('no credentials');
  }

  const partner = await findPartner(s.sql, partnerId);
  if (!partner || !c.kinds.includes(partner.kind))
    return refuse(`sender ${partnerId} is not a ${c.kinds.join(' or ')}`);
  return partner;
}
