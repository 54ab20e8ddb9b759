import { ServiceError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { BookingClient, BOOKING_WORKFLOW_TYPE, refusedAs } from '../../../src/bookings/client.js';
import { ProblemError } from '../../../src/http/problem.js';
import { toProblemError } from '../../../src/plugins/error-handler.js';
import { Refusal } from '../../../src/refusal.js';
import type { BookingWorkflowInput } from '../../../workflows/bookings/definitions.js';
import { BookingFailure, type BookingState } from '../../../src/model/bookings.js';

// The booking client reads Temporal's failures in one place: a workflow no longer running is an
// answer (null, false, 'expired'), a workflow's refusal the Refusal callers are told, Temporal out of
// reach a 503. Against a stand-in Temporal client that fails as the real one does;
// test/integration/booking-client.test.ts shows the same against the real server.

const refused = (type: string, message = `refused: ${type}`, details?: unknown) =>
  new WorkflowUpdateFailedError(
    'Workflow Update failed',
    ApplicationFailure.nonRetryable(message, type, ...(details === undefined ? [] : [details])),
  );
const gone = () => new WorkflowNotFoundError('workflow not found', 'booking:BK1', undefined);
const grpc = (code: number) =>
  Object.assign(new Error(`${code} UNAVAILABLE: connect ECONNREFUSED`), { code, details: 'x', metadata: {} });

interface Calls {
  started: { type: string; options: Record<string, unknown> }[];
  ids: string[];
}

/** A Temporal client whose every call to a booking answers `answer` (or throws it, if it is an Error). */
function standIn(answer: unknown, opts: { start?: unknown; query?: unknown } = {}): { client: Client; calls: Calls } {
  const calls: Calls = { started: [], ids: [] };
  const reply = async (a: unknown) => {
    if (a instanceof Error) throw a;
    return a;
  };
  const handle = {
    executeUpdate: () => reply(answer),
    signal: () => reply(answer),
    query: () => reply(opts.query ?? answer),
  };
  const client = {
    workflow: {
      getHandle: (id: string) => {
        calls.ids.push(id);
        return handle;
      },
      executeUpdateWithStart: (
        _update: unknown,
        o: { startWorkflowOperation: { workflowTypeOrFunc: string; options: Record<string, unknown> } },
      ) => {
        calls.started.push({
          type: o.startWorkflowOperation.workflowTypeOrFunc,
          options: o.startWorkflowOperation.options,
        });
        return reply(opts.start ?? answer);
      },
    },
  } as unknown as Client;
  return { client, calls };
}

const bookings = (answer: unknown, opts?: { start?: unknown; query?: unknown }) =>
  new BookingClient(standIn(answer, opts).client, 'tq');

async function thrown(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a failure');
}

const sent = (p: ProblemError) => ({
  status: p.status,
  body: p.toProblem('req-1', '/x'),
  headers: p.extra.headers ?? {},
});

const input = (identity: string | null) =>
  ({
    booking: {
      ref: 'BK1',
      identity,
      pickup: { label: 'Leeds station' },
      dropoff: { label: 'Harrogate' },
      farePence: 4250,
    },
    job: { pickupAt: '2030-01-01T10:00:00.000Z' },
    policy: { dispatchLeadSeconds: 900 },
  }) as unknown as BookingWorkflowInput;

describe('the booking client', () => {
  it('tells each refusal the entry points told before as they told it', async () => {
    // As src/temporal/refusals.ts mapped them for every entry point before the client.
    const before: [string, number, string][] = [
      [BookingFailure.closed, 409, 'booking_closed'],
      [BookingFailure.identityMismatch, 409, 'booking_conflict'],
      [BookingFailure.notYourJob, 409, 'not_your_job'],
      [BookingFailure.invalidTripStep, 409, 'invalid_trip_step'],
      [BookingFailure.offerTaken, 409, 'job_taken'],
      [BookingFailure.offerExpired, 410, 'offer_expired'],
      [BookingFailure.offerAlreadyAccepted, 409, 'job_already_accepted'],
      [BookingFailure.tripInProgress, 409, 'trip_in_progress'],
      [BookingFailure.tripNotInProgress, 409, 'trip_not_in_progress'],
      [BookingFailure.alreadySettled, 409, 'trip_already_settled'],
      [BookingFailure.invalidPayment, 400, 'invalid_payment'],
    ];
    for (const [type, status, code] of before) {
      const err = await thrown(
        bookings(refused(type, 'booking BK1 is completed')).cancel('BK1', { reason: null, by: 'passenger' }),
      );
      expect(err).toBeInstanceOf(Refusal);
      expect(sent(toProblemError(err as never))).toEqual(
        sent(new ProblemError(status, code, 'booking BK1 is completed')),
      );
    }
  });

  it('gives every refusal of the workflow a code, so none reaches a caller as a Temporal error', async () => {
    for (const type of Object.values(BookingFailure)) {
      const err = await thrown(bookings(refused(type)).settle('BK1', {} as never));
      expect(err, type).toBeInstanceOf(Refusal);
      expect((err as Refusal).cause, type).toBeInstanceOf(WorkflowUpdateFailedError);
    }
    const err = await thrown(bookings(refused(BookingFailure.alreadyAssigned)).offerToDriver('BK1', {} as never));
    expect(refusedAs(err, 'already_assigned')).toBe(true);
    expect(refusedAs(err, 'booking_closed')).toBe(false);
    expect(refusedAs(new Error('already_assigned'), 'already_assigned')).toBe(false);
  });

  it("tells a driver who cannot take a job the workflow's reason as a sentence", async () => {
    const err = await thrown(
      bookings(refused(BookingFailure.driverDoesNotFit, 'driver d1 has another job then')).claimUpcomingJob('BK1', {
        driverId: 'd1',
        driverName: 'Dee',
      }),
    );
    expect(err).toMatchObject({
      kind: 'conflict',
      code: 'cannot_take_job',
      message: 'Driver d1 has another job then.',
    });
  });

  it("names the booking a workflow's refusal names", async () => {
    const err = await thrown(bookings(refused(BookingFailure.closed, 'closed', { bookingRef: 'BK9' })).state('BK1'));
    expect((err as Refusal).details).toEqual({ booking_reference: 'BK9' });
  });

  it('answers null, false or expired for a booking whose workflow has closed', async () => {
    expect(await bookings(gone()).cancel('BK1', { reason: null, by: 'ops' })).toBeNull();
    expect(await bookings(gone()).settle('BK1', {} as never)).toBeNull();
    expect(await bookings(gone()).state('BK1')).toBeNull();
    // A bare gRPC NOT_FOUND, as update-with-start and some updates surface it.
    expect(
      await bookings(new ServiceError('Workflow Update failed', { cause: grpc(5) })).endTrip('BK1', {} as never),
    ).toBeNull();
    expect(await bookings(gone()).emailConfirmed('BK1')).toBe(false);
    expect(await bookings(gone()).driverDropped('BK1', { driverId: 'd1', reason: 'released' })).toBe(false);
    expect(await bookings(undefined).offerSeen('BK1', { offerId: 'o1', driverId: 'd1' })).toBe(true);
    expect(await bookings(gone()).respondToOffer('BK1', { offerId: 'o1', driverId: 'd1', decision: 'accept' })).toBe(
      'expired',
    );
  });

  it('answers a repeated accept as accepted, and refuses a decline after it', async () => {
    const again = refused(BookingFailure.offerAlreadyAccepted, 'driver d1 already has booking BK1');
    expect(await bookings(again).respondToOffer('BK1', { offerId: 'o1', driverId: 'd1', decision: 'accept' })).toBe(
      'accepted',
    );
    const err = await thrown(
      bookings(again).respondToOffer('BK1', { offerId: 'o1', driverId: 'd1', decision: 'decline' }),
    );
    expect(err).toMatchObject({ code: 'job_already_accepted' });
  });

  it('tells Temporal out of reach as a 503 to retry in 5 s, and leaves a bug alone', async () => {
    const down = new ServiceError('Workflow Update failed', { cause: grpc(14) });
    const err = await thrown(bookings(down).reportTrip('BK1', { driverId: 'd1', event: 'arrived' }));
    expect(err).toMatchObject({ kind: 'unavailable', code: 'temporarily_unavailable', retryAfterSeconds: 5 });
    expect((err as Refusal).cause).toBe(down);
    const bug = new TypeError('bug');
    expect(await thrown(bookings(bug).amend('BK1', {}))).toBe(bug);
  });

  it('starts a booking under its reference, with the workflow type in one place', async () => {
    const state = { status: 'scheduled', identity: 'req-1' } as BookingState;
    const { client, calls } = standIn(state);
    expect(await new BookingClient(client, 'tq').open(input('req-1'))).toEqual({ state });
    expect(calls.started).toMatchObject([
      { type: BOOKING_WORKFLOW_TYPE, options: { workflowId: 'booking:BK1', taskQueue: 'tq' } },
    ]);
  });

  it("answers a reference another request's ride holds as taken, and a finished one's request with its state", async () => {
    const mismatch = refused(BookingFailure.identityMismatch);
    expect(await bookings(undefined, { start: mismatch }).open(input('req-1'))).toEqual({ refTaken: true });
    const finished = new WorkflowExecutionAlreadyStartedError('started', 'booking:BK1', BOOKING_WORKFLOW_TYPE);
    const final = { status: 'completed', identity: 'req-1' } as BookingState;
    expect(await bookings(undefined, { start: finished, query: final }).open(input('req-1'))).toEqual({ state: final });
    expect(await bookings(undefined, { start: finished, query: final }).open(input('req-2'))).toEqual({
      refTaken: true,
    });
  });
});
