import { Refusal, type FieldLocation, type RefusalKind, type RefusedField } from '../refusal.js';
import { refusalFromTemporal } from '../temporal/refusals.js';
import { ProblemError, type FieldError } from './problem.js';

// The one translation of a use case's Refusal (src/refusal.ts) into HTTP: its kind is the status,
// its fields the problem's `errors` (named where the request carried them: body.pickup,
// querystring.after), retryAfterSeconds the Retry-After header, its details the problem's extras.
// The error handler (src/plugins/error-handler.ts) renders what this returns like any ProblemError.

export const REFUSAL_STATUS: Record<RefusalKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  too_large: 413,
  unsupported: 415,
  unprocessable: 422,
  too_many: 429,
  unavailable: 503,
};

/** Fastify's names for where a request carries a field, as its own validation errors spell them. */
const LOCATION: Record<FieldLocation, string> = { body: 'body', query: 'querystring', params: 'params' };

/**
 * A refused field's path in the request: 'body.passenger_phone', 'querystring.after'. A name that
 * starts with an index is an item of a body that is a list ('[2].pickupTime': 'body[2].pickupTime'),
 * and the empty name is the whole of it ('body').
 */
export function fieldPath(f: RefusedField): string {
  const where = LOCATION[f.in ?? 'body'];
  if (f.name === '') return where;
  return f.name.startsWith('[') ? `${where}${f.name}` : `${where}.${f.name}`;
}

export function problemFromRefusal(r: Refusal): ProblemError {
  const errors: FieldError[] = r.fields.map((f) => ({ field: fieldPath(f), message: f.message }));
  return new ProblemError(REFUSAL_STATUS[r.kind], r.code, r.message, {
    ...(errors.length > 0 ? { errors } : {}),
    ...(r.retryAfterSeconds !== undefined
      ? { headers: { 'retry-after': String(Math.ceil(r.retryAfterSeconds)) } }
      : {}),
    ...r.details,
  });
}

/**
 * A refusal thrown at a caller, as the problem it is told: a Refusal translated, or a ProblemError
 * (HTTP's own: credentials, body parsing, a route's input check) as it is; null for anything else.
 */
export function refusalProblem(err: unknown): ProblemError | null {
  if (err instanceof ProblemError) return err;
  return err instanceof Refusal ? problemFromRefusal(err) : null;
}

/**
 * refusalProblem, and also Temporal failing, as src/temporal/refusals.ts maps it (each workflow's
 * client tells its refusals): everything a request can fail with that the caller is told about. Null for the rest
 * (a bug, the database), which is not the caller's to act on.
 */
export function failureProblem(err: unknown): ProblemError | null {
  const refused = refusalProblem(err);
  if (refused) return refused;
  const temporal = refusalFromTemporal(err);
  return temporal ? problemFromRefusal(temporal) : null;
}
