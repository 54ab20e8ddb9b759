// A use case that will not do what it was asked raises a Refusal: what kind of "no" it is, a stable
// machine code, a sentence for the caller and, for input it cannot take, the fields it concerns,
// named as the caller wrote them. It knows nothing of HTTP, MCP or Temporal: each entry point
// translates it once (docs/refusals.md): src/http/refusal-problem.ts into problem details,
// src/mcp/refusal-result.ts into a tool error, src/partners/job-rejection.ts into a rejected job.

/**
 * The kinds of refusal, by meaning. Each entry point maps them to its own terms (an HTTP status,
 * say); a use case picks the one that says why it refuses.
 */
export const REFUSAL_KINDS = [
  /** The input breaks a rule: malformed, missing, contradictory, in the past. */
  'invalid',
  /** Who the caller is was not shown, or not believed (a wrong sign-in code). */
  'unauthenticated',
  /** The caller is known and may not do this (a suspended driver, another driver's job). */
  'forbidden',
  /** What it names does not exist, or not for this caller. */
  'not_found',
  /** It cannot be done in the state things are in now (already answered, taken, closed). */
  'conflict',
  /** It was there and is no more, for good (an expired quote or offer, a spent link). */
  'gone',
  /** The input is bigger or longer than is taken. */
  'too_large',
  /** The input is of a type that is not taken (a document that is no PDF, JPEG or PNG). */
  'unsupported',
  /** The input is well-formed, but nothing can be done with it (an address not located, a journey no tariff prices). */
  'unprocessable',
  /** A limit is reached; retryAfterSeconds says when to try again. */
  'too_many',
  /** The service cannot do it just now, through no fault of the caller; retryAfterSeconds says when to try again. */
  'unavailable',
] as const;

export type RefusalKind = (typeof REFUSAL_KINDS)[number];

/** Where the caller put a field, when it matters to say so (HTTP: the body, the query string or the path). */
export type FieldLocation = 'body' | 'query' | 'params';

export interface RefusedField {
  /**
   * The input field as the caller wrote it, dotted for nested ones: 'passenger_phone',
   * 'documents.0.data_base64'. No location prefix ('body.'): an entry point adds its own.
   */
  name: string;
  /** What is wrong with it, as a phrase that follows the name: 'must not be in the past'. */
  message: string;
  /** Where it was sent; the request body unless said. */
  in?: FieldLocation;
}

export interface RefusalOptions {
  /** The one field the refusal concerns. */
  field?: RefusedField;
  /** Several fields; with `field`, that one comes first. */
  fields?: readonly RefusedField[];
  /** For too_many and unavailable: when to try again. */
  retryAfterSeconds?: number;
  /**
   * Extras the caller can act on, sent as they are named here (snake_case, as on the wire):
   * `suggestions` for an address, `booking_reference`.
   */
  details?: Readonly<Record<string, unknown>>;
}

type Make = (code: string, message: string, opts?: RefusalOptions) => Refusal;

export class Refusal extends Error {
  readonly fields: readonly RefusedField[];
  readonly retryAfterSeconds: number | undefined;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    readonly kind: RefusalKind,
    /** The stable machine code clients depend on: 'quote_expired', 'validation_failed'. Never changed once published. */
    readonly code: string,
    message: string,
    opts: RefusalOptions = {},
  ) {
    super(message);
    this.name = 'Refusal';
    this.fields = [...(opts.field ? [opts.field] : []), ...(opts.fields ?? [])];
    this.retryAfterSeconds = opts.retryAfterSeconds;
    this.details = opts.details ?? {};
  }

  /** The name of the (first) field it concerns, if any. */
  get field(): string | undefined {
    return this.fields[0]?.name;
  }

  static readonly invalid: Make = (code, message, opts) => new Refusal('invalid', code, message, opts);
  static readonly unauthenticated: Make = (code, message, opts) => new Refusal('unauthenticated', code, message, opts);
  static readonly forbidden: Make = (code, message, opts) => new Refusal('forbidden', code, message, opts);
  static readonly notFound: Make = (code, message, opts) => new Refusal('not_found', code, message, opts);
  static readonly conflict: Make = (code, message, opts) => new Refusal('conflict', code, message, opts);
  static readonly gone: Make = (code, message, opts) => new Refusal('gone', code, message, opts);
  static readonly tooLarge: Make = (code, message, opts) => new Refusal('too_large', code, message, opts);
  static readonly unsupported: Make = (code, message, opts) => new Refusal('unsupported', code, message, opts);
  static readonly unprocessable: Make = (code, message, opts) => new Refusal('unprocessable', code, message, opts);
  static readonly tooMany: Make = (code, message, opts) => new Refusal('too_many', code, message, opts);
  static readonly unavailable: Make = (code, message, opts) => new Refusal('unavailable', code, message, opts);
}
