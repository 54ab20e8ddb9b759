import { ServiceError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure, WorkflowNotFoundError } from '@temporalio/common';
import { describe, expect, it, vi } from 'vitest';
import { ProblemError } from '../../src/http/problem.js';
import {
  REFUSAL_STATUS,
  failureProblem,
  fieldPath,
  problemFromRefusal,
  refusalProblem,
} from '../../src/http/refusal-problem.js';
import { refusalResult, toolFailure, toolRefusal } from '../../src/mcp/refusal-result.js';
import { jobRejection } from '../../src/partners/job-rejection.js';
import { toProblemError } from '../../src/plugins/error-handler.js';
import { REFUSAL_KINDS, Refusal } from '../../src/refusal.js';
import { applicationFailure, isWorkflowGone, refusalFromTemporal } from '../../src/temporal/refusals.js';
import { subscriptionFailure } from '../../src/billing/subscription-client.js';
import { quoteFailure } from '../../src/quotes/client.js';
import { SubscriptionFailure } from '../../workflows/billing/definitions.js';
import { BookingFailure } from '../../src/model/bookings.js';
import { QuoteFailure } from '../../workflows/quotes/definitions.js';

// A use case's Refusal is told to every caller as the ProblemError it replaced was: same status,
// code, detail, errors (named where the request carried them), extras and headers.

/** Both sides as the error handler sends them: the body and the headers. */
const sent = (p: ProblemError) => ({
  status: p.status,
  body: p.toProblem('req-1', '/x'),
  headers: p.extra.headers ?? {},
});

const suggestions = [{ label: 'Edinburgh Waverley', kind: 'station', town: 'Edinburgh', precision: 'exact' }];

/** One refusal of each kind, taken from the use cases, beside the ProblemError each threw before. */
const CASES: Array<{ refusal: Refusal; before: ProblemError }> = [
  {
    refusal: Refusal.invalid('reason_required', 'The amount is less than the fare: say why in reason.', {
      field: { name: 'reason', message: 'is required when the amount is less than the fare' },
    }),
    before: new ProblemError(400, 'reason_required', 'The amount is less than the fare: say why in reason.', {
      errors: [{ field: 'body.reason', message: 'is required when the amount is less than the fare' }],
    }),
  },
  {
    refusal: Refusal.invalid('invalid_cursor', 'after names no event of yours.', {
      field: { name: 'after', in: 'query', message: 'names no event of yours' },
    }),
    before: new ProblemError(400, 'invalid_cursor', 'after names no event of yours.', {
      errors: [{ field: 'querystring.after', message: 'names no event of yours' }],
    }),
  },
  {
    refusal: Refusal.unauthenticated('invalid_code', 'That code is not valid. Ask for a new one if it has expired.'),
    before: new ProblemError(401, 'invalid_code', 'That code is not valid. Ask for a new one if it has expired.'),
  },
  {
    refusal: Refusal.forbidden('driver_suspended', 'This driver account is suspended.'),
    before: new ProblemError(403, 'driver_suspended', 'This driver account is suspended.'),
  },
  {
    refusal: Refusal.notFound('driver_not_found', 'No driver drv_1.', {
      field: { name: 'subject_id', message: 'is no driver' },
    }),
    before: new ProblemError(404, 'driver_not_found', 'No driver drv_1.', {
      errors: [{ field: 'body.subject_id', message: 'is no driver' }],
    }),
  },
  {
    refusal: Refusal.conflict('job_taken', 'Another driver has already taken this job.'),
    before: new ProblemError(409, 'job_taken', 'Another driver has already taken this job.'),
  },
  {
    refusal: Refusal.gone('quote_expired', 'Quote q1 has expired. Ask for a new quote.'),
    before: new ProblemError(410, 'quote_expired', 'Quote q1 has expired. Ask for a new quote.'),
  },
  {
    refusal: Refusal.tooLarge('too_many_documents', 'At most 4 documents.', {
      field: { name: 'documents', message: 'at most 4' },
    }),
    before: new ProblemError(413, 'too_many_documents', 'At most 4 documents.', {
      errors: [{ field: 'body.documents', message: 'at most 4' }],
    }),
  },
  {
    refusal: Refusal.unsupported('document_type', 'Document 1 must be a PDF, JPEG or PNG.', {
      field: { name: 'documents.0.content_type', message: 'does not match the file' },
    }),
    before: new ProblemError(415, 'document_type', 'Document 1 must be a PDF, JPEG or PNG.', {
      errors: [{ field: 'body.documents.0.content_type', message: 'does not match the file' }],
    }),
  },
  {
    refusal: Refusal.unprocessable('address_uncertain', 'Not sure where pickup "Waverley" is.', {
      field: { name: 'pickup', message: 'is not precise enough' },
      details: { suggestions },
    }),
    before: new ProblemError(422, 'address_uncertain', 'Not sure where pickup "Waverley" is.', {
      errors: [{ field: 'body.pickup', message: 'is not precise enough' }],
      suggestions,
    }),
  },
  {
    refusal: Refusal.tooMany('too_many_codes', 'Too many codes sent to this phone; try again in 3 minutes.', {
      retryAfterSeconds: 170,
    }),
    before: new ProblemError(429, 'too_many_codes', 'Too many codes sent to this phone; try again in 3 minutes.', {
      headers: { 'retry-after': '170' },
    }),
  },
  {
    refusal: Refusal.unavailable('codes_paused', 'We cannot send codes right now. Please try again later.', {
      retryAfterSeconds: 3600,
    }),
    before: new ProblemError(503, 'codes_paused', 'We cannot send codes right now. Please try again later.', {
      headers: { 'retry-after': '3600' },
    }),
  },
];

const updateFailure = (type: string, message = `refused: ${type}`, details?: unknown) =>
  new WorkflowUpdateFailedError(
    'Workflow Update failed',
    ApplicationFailure.nonRetryable(message, type, ...(details === undefined ? [] : [details])),
  );

const grpcError = (code: number) =>
  Object.assign(new Error('14 UNAVAILABLE: connect ECONNREFUSED'), {
    code,
    details: 'connect ECONNREFUSED',
    metadata: {},
  });

describe('a Refusal over HTTP', () => {
  it('covers every kind once, each its own status', () => {
    expect(new Set(CASES.map((c) => c.refusal.kind))).toEqual(new Set(REFUSAL_KINDS));
    expect(new Set(Object.values(REFUSAL_STATUS)).size).toBe(REFUSAL_KINDS.length);
  });

  it.each(CASES.map((c) => [c.refusal.kind, c] as const))(
    'renders a %s refusal as the problem it replaced',
    (_kind, { refusal, before }) => {
      expect(sent(problemFromRefusal(refusal))).toEqual(sent(before));
      // And so does the error handler, which every route's thrown error goes through.
      expect(sent(toProblemError(refusal as never))).toEqual(sent(before));
    },
  );

  it('names a field as the caller wrote it, and where the request carried it only in the problem', () => {
    const r = Refusal.invalid('validation_failed', 'Document 2 is not valid base64.', {
      field: { name: 'documents.1.data_base64', message: 'must be base64' },
    });
    expect(r.field).toBe('documents.1.data_base64');
    expect(problemFromRefusal(r).extra.errors).toEqual([
      { field: 'body.documents.1.data_base64', message: 'must be base64' },
    ]);
    const params = Refusal.notFound('offer_not_found', 'No offer x.', {
      field: { name: 'offerId', in: 'params', message: 'is no offer' },
    });
    expect(problemFromRefusal(params).extra.errors?.[0]?.field).toBe('params.offerId');
  });

  it('passes a ProblemError through as it is, and leaves anything else to the error handler', () => {
    const problem = new ProblemError(401, 'not_staff', 'A valid staff key is required.');
    expect(refusalProblem(problem)).toBe(problem);
    expect(refusalProblem(new Error('bug'))).toBeNull();
    expect(failureProblem(new Error('bug'))).toBeNull();
  });

  it('names an item of a body that is a list by its index, and the body itself by the empty name', () => {
    expect(fieldPath({ name: '[2].pickupTime', message: 'x' })).toBe('body[2].pickupTime');
    expect(fieldPath({ name: '[2]', message: 'x' })).toBe('body[2]');
    expect(fieldPath({ name: '', message: 'x' })).toBe('body');
    expect(fieldPath({ name: 'jobs', message: 'x' })).toBe('body.jobs');
    const tooMany = Refusal.invalid('too_many_jobs', '101 jobs in one request; at most 100.', {
      field: { name: '', message: 'must hold at most 100 jobs' },
    });
    expect(sent(problemFromRefusal(tooMany))).toEqual(
      sent(
        new ProblemError(400, 'too_many_jobs', '101 jobs in one request; at most 100.', {
          errors: [{ field: 'body', message: 'must hold at most 100 jobs' }],
        }),
      ),
    );
  });
});

describe("Temporal failures, mapped by each workflow's client and one module", () => {
  it("reads a workflow's typed refusal", () => {
    expect(applicationFailure(updateFailure(QuoteFailure.expired))?.type).toBe(QuoteFailure.expired);
    expect(applicationFailure(new Error('no'))).toBeUndefined();
    expect(quoteFailure(updateFailure(QuoteFailure.expired, 'quote q1 has expired'))).toMatchObject({
      kind: 'gone',
      code: 'quote_expired',
      message: 'quote q1 has expired',
    });
    expect(
      sent(toProblemError(quoteFailure(updateFailure(QuoteFailure.expired, 'quote q1 has expired')) as never)),
    ).toEqual(sent(new ProblemError(410, 'quote_expired', 'quote q1 has expired')));
  });

  it('never names the booking another request made from a quote', () => {
    const problem = toProblemError(
      quoteFailure(
        updateFailure(QuoteFailure.alreadyRedeemed, 'quote q1 was already redeemed by booking BK1', {
          bookingRef: 'BK1',
        }),
      ) as never,
    );
    expect(problem.status).toBe(409);
    expect(problem.code).toBe('quote_already_redeemed');
    expect(problem.message).not.toContain('BK1');
    expect(problem.extra.booking_reference).toBeUndefined();
  });

  it("maps the subscription's refusals that the trial extension route used to map itself", () => {
    expect(toProblemError(subscriptionFailure(updateFailure(SubscriptionFailure.trialEnded)) as never)).toMatchObject({
      status: 409,
      code: 'trial_not_extendable',
    });
    expect(
      toProblemError(subscriptionFailure(updateFailure(SubscriptionFailure.invalidExtension)) as never),
    ).toMatchObject({
      status: 422,
      code: 'invalid_trial_extension',
    });
    expect(toProblemError(subscriptionFailure(updateFailure(SubscriptionFailure.trialTooLong)) as never)).toMatchObject(
      {
        status: 422,
        code: 'trial_too_long',
      },
    );
  });

  it('tells a workflow that is not running, and Temporal out of reach (503, retry in 5 s)', () => {
    const gone = new WorkflowNotFoundError('workflow not found', 'booking:BK1', undefined);
    expect(isWorkflowGone(gone)).toBe(true);
    expect(isWorkflowGone(new ServiceError('Workflow Update failed', { cause: grpcError(5) }))).toBe(true);
    expect(isWorkflowGone(new ServiceError('Workflow Update failed', { cause: grpcError(14) }))).toBe(false);
    expect(sent(toProblemError(gone as never))).toEqual(
      sent(new ProblemError(404, 'not_found', 'No such booking or quote is running.')),
    );
    expect(sent(toProblemError(new ServiceError('Workflow Update failed', { cause: grpcError(14) }) as never))).toEqual(
      sent(
        new ProblemError(503, 'temporarily_unavailable', 'The booking engine is briefly unavailable; retry shortly.', {
          headers: { 'retry-after': '5' },
        }),
      ),
    );
  });

  it("leaves a workflow's refusal (its client tells them) and anything not from Temporal alone", () => {
    expect(refusalFromTemporal(updateFailure(BookingFailure.offerTaken))).toBeNull();
    expect(refusalFromTemporal(updateFailure(QuoteFailure.expired))).toBeNull();
    expect(refusalFromTemporal(updateFailure(SubscriptionFailure.trialEnded))).toBeNull();
    expect(refusalFromTemporal(new Error('bug'))).toBeNull();
  });
});

describe('a Refusal to an MCP tool', () => {
  const body = (r: ReturnType<typeof refusalResult>) =>
    JSON.parse((r?.content[0] as { text: string }).text) as { error: Record<string, unknown> };

  it('keeps the field name as the tool argument it is, with the suggestions', () => {
    const r = refusalResult(
      Refusal.invalid('validation_failed', 'The driver needs a phone number: give passenger_phone.', {
        field: { name: 'passenger_phone', message: 'is required (the passenger signed in with an email)' },
        details: { suggestions },
      }),
    );
    expect(r?.isError).toBe(true);
    expect(body(r).error).toEqual({
      code: 'validation_failed',
      message: 'The driver needs a phone number: give passenger_phone.',
      fields: [{ field: 'passenger_phone', message: 'is required (the passenger signed in with an email)' }],
      suggestions,
    });
  });

  it("tells a workflow's refusal, and a ProblemError (HTTP's own) with its request location dropped", () => {
    expect(body(toolRefusal(quoteFailure(updateFailure(QuoteFailure.expired, 'quote q1 expired')))).error).toEqual({
      code: 'quote_expired',
      message: 'quote q1 expired',
    });
    const problem = new ProblemError(400, 'vehicle_too_small', 'A saloon seats 4.', {
      errors: [{ field: 'body.vehicle_type', message: 'seats 4' }],
    });
    expect(body(toolRefusal(problem)).error.fields).toEqual([{ field: 'vehicle_type', message: 'seats 4' }]);
  });

  it('logs what the caller cannot act on and says "try again"', () => {
    const logError = vi.fn();
    for (const caught of [
      Refusal.unavailable('codes_paused', 'paused', { retryAfterSeconds: 60 }),
      new ProblemError(500, 'internal_error', 'x'),
      new Error('bug'),
    ]) {
      expect(body(toolFailure(caught, logError)).error.code).toBe('temporarily_unavailable');
    }
    expect(logError).toHaveBeenCalledTimes(3);
    expect(body(toolFailure(Refusal.tooMany('rate_limited', 'Too many.'), logError)).error.code).toBe('rate_limited');
  });
});

describe('a Refusal to partner intake', () => {
  it("is one job's rejected line, its fields named where the sender wrote them (never body.body[1])", () => {
    const r = Refusal.unprocessable('address_not_found', 'Could not locate body[1].pickup "Nowhere".', {
      field: { name: 'body[1].pickup', message: 'could not be located' },
    });
    expect(jobRejection(r)).toEqual({
      outcome: 'rejected',
      code: 'address_not_found',
      message: 'Could not locate body[1].pickup "Nowhere".',
      bookingReference: null,
      bookingStatus: null,
      errors: [{ field: 'body[1].pickup', message: 'could not be located' }],
    });
    expect(jobRejection(Refusal.forbidden('passenger_blocked', 'Blocked.'))).toMatchObject({
      outcome: 'rejected',
      code: 'passenger_blocked',
    });
    expect(jobRejection(Refusal.forbidden('passenger_blocked', 'Blocked.'))).not.toHaveProperty('errors');
    // A job's own fields, at its place in a batch.
    expect(
      jobRejection(
        Refusal.invalid('invalid_job', 'The job has invalid fields.', {
          fields: [{ name: '[0].notes', message: 'y' }],
        }),
      ),
    ).toMatchObject({
      outcome: 'rejected',
      errors: [{ field: 'body[0].notes', message: 'y' }],
    });
  });

  it('fails the batch for a limit, the service unavailable or anything unexpected, as the statuses did', () => {
    expect(jobRejection(Refusal.tooMany('too_many_codes', 'x', { retryAfterSeconds: 1 }))).toBeNull();
    expect(jobRejection(Refusal.unavailable('temporarily_unavailable', 'x'))).toBeNull();
    expect(jobRejection(new ProblemError(429, 'rate_limited', 'x'))).toBeNull();
    expect(jobRejection(new ProblemError(503, 'temporarily_unavailable', 'x'))).toBeNull();
    expect(jobRejection(new Error('bug'))).toBeNull();
    expect(
      jobRejection(new ProblemError(400, 'invalid_job', 'x', { errors: [{ field: 'body[0].notes', message: 'y' }] })),
    ).toMatchObject({
      outcome: 'rejected',
      errors: [{ field: 'body[0].notes', message: 'y' }],
    });
  });
});
