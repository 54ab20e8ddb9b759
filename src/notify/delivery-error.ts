// Transports report failures as one error type so the activity layer can tell a retry that may
// succeed (rate limits, provider outages) from one that cannot (an invalid number), without knowing
// which provider failed.

export class DeliveryError extends Error {
  /** True when sending the same message again cannot succeed; the activity should fail without retrying. */
  readonly nonRetryable: boolean;
  readonly provider: string;
  /** HTTP status or SMTP reply code, when the provider answered. */
  readonly status: number | null;
  /** The provider's own error code (e.g. Twilio 21211), when it gave one. */
  readonly providerCode: string | null;

  constructor(opts: {
    provider: string;
    message: string;
    nonRetryable: boolean;
    status?: number | null;
    providerCode?: string | null;
    cause?: unknown;
  }) {
    super(opts.message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'DeliveryError';
    this.provider = opts.provider;
    this.nonRetryable = opts.nonRetryable;
    this.status = opts.status ?? null;
    this.providerCode = opts.providerCode ?? null;
  }
}

/** True for any error (not only DeliveryError) that declares itself not worth retrying. */
export function isNonRetryable(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'nonRetryable' in err && err.nonRetryable === true;
}
