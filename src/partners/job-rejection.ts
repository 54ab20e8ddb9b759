import { fieldPath } from '../http/refusal-problem.js';
import { ProblemError } from '../http/problem.js';
import { Refusal, type RefusalKind, type RefusedField } from '../refusal.js';
import { JobResultSchema, type JobResult } from '../schemas/partner-job.js';

// The one translation of a refusal into partner intake's answer for one job (docs/refusals.md): a
// job the use cases refuse is one rejected line of a 207, not a failed batch. What is nobody's
// job in particular (a limit reached, the service unavailable) fails the batch, and so does
// anything unexpected. Fields are named as in the problem the same refusal makes ("body[2].pickupTime").

export type JobRejection = Pick<
  JobResult,
  'outcome' | 'code' | 'message' | 'bookingReference' | 'bookingStatus' | 'errors' | 'suggestions' | 'question'
>;

/** Refusals that are the whole request's, not one job's. */
const BATCH_KINDS = new Set<RefusalKind>(['too_many', 'unavailable']);

/** A refusal as the job's rejected line; null when the batch is to fail (rethrow it). */
export function jobRejection(err: unknown): JobRejection | null {
  if (err instanceof Refusal) {
    if (BATCH_KINDS.has(err.kind)) return null;
    const errors = err.fields.map((f) => ({ field: senderPath(f), message: f.message }));
    return { ...rejected(err.code, err.message, errors.length > 0 ? errors : undefined), ...addressHelp(err) };
  }
  // Use cases raise Refusals (a lint rule keeps them off ProblemError); an HTTP-layer problem that
  // still reaches here is judged by its status, as intake always did.
  if (err instanceof ProblemError) {
    if (err.status >= 500 || err.status === 429) return null;
    return rejected(err.code, err.message, err.extra.errors);
  }
  return null;
}

/**
 * A job's field as the sender wrote it, rooted in the body as HTTP names fields ("body[2].pickup",
 * "body.jobs[2].pickup", "body.pickup"). Pricing names its fields so already (its messages say
 * them too): those are kept, never rooted twice (issue 37: "body.body[7].pickup").
 */
function senderPath(f: RefusedField): string {
  if ((f.in ?? 'body') === 'body' && /^body(\.|\[|$)/.test(f.name)) return f.name;
  return fieldPath(f);
}

/**
 * What an address refusal's message mentions, carried on the line as the same refusal's problem
 * carries it ("did you mean one of the suggestions?", "send it with its postcode"): a sender can
 * put a suggestion in front of its dispatcher without a second call (issue 37).
 */
function addressHelp(err: Refusal): Pick<JobRejection, 'suggestions' | 'question'> {
  const parsed = AddressHelpSchema.safeParse(err.details);
  if (!parsed.success) return {};
  const { suggestions, question } = parsed.data;
  return {
    ...(suggestions && suggestions.length > 0 ? { suggestions } : {}),
    ...(question ? { question } : {}),
  };
}

const AddressHelpSchema = JobResultSchema.pick({ suggestions: true, question: true });

const rejected = (code: string, message: string, errors: JobResult['errors']): JobRejection => ({
  outcome: 'rejected',
  code,
  message,
  bookingReference: null,
  bookingStatus: null,
  ...(errors ? { errors } : {}),
});
