import { ProblemError } from './problem.js';

// Postgres restarting or out of reach is not the caller's fault and not a bug: it is a 503 the
// client should retry (with the same Idempotency-Key), never a 500. Measured in the cluster fault
// test: a Postgres restart under load answered 500s before this.

/** Socket errors postgres.js passes on when the server is not there. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
]);
/** SQLSTATEs of a server shutting down or starting up (class 57: operator intervention; 08: connection exception). */
const UNAVAILABLE_SQLSTATE = /^(57P0[1-4]|08\d{3})$/;

export function databaseProblem(err: unknown): ProblemError | null {
  const e = err as { code?: unknown; errno?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : typeof e?.errno === 'string' ? e.errno : null;
  if (code === null || !(NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return null;
  return new ProblemError(
    503,
    'temporarily_unavailable',
    'The service is briefly unavailable; retry shortly with the same Idempotency-Key.',
    {
      headers: { 'retry-after': '5' },
    },
  );
}
