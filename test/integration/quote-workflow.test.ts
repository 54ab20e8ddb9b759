import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProblemError } from '../../src/http/problem.js';
import { failureProblem } from '../../src/http/refusal-problem.js';
import { redeemQuote } from '../../src/quotes/redeem-quote.js';
import { quoteStateQuery, quoteWorkflowId } from '../../workflows/quotes/definitions.js';
import { eventually, STACK_WAIT_MS, startStack, type TestStack } from '../support/stack.js';

let stack: TestStack;
let shortLived: TestStack;
beforeAll(async () => {
  stack = await startStack();
  // Same code, validity shortened to seconds so expiry is observed for real.
  shortLived = await startStack({ QUOTE_TTL_SECONDS: '2' });
});
afterAll(async () => {
  await stack?.close();
  await shortLived?.close();
});

async function newQuote(s: TestStack): Promise<string> {
  const res = await s.app.inject({
    method: 'POST',
    url: '/api/public/v1/quote',
    remoteAddress: `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    payload: { pickup: 'Edinburgh Waverley', dropoff: 'Edinburgh Airport' },
  });
  expect(res.statusCode).toBe(200);
  return res.json().quote_id as string;
}

/** The problem a client would be told: as the error handler maps it (workflow refusals included). */
function asProblem(err: unknown): ProblemError {
  const problem = failureProblem(err);
  if (!problem) throw err;
  return problem;
}

async function problemOf(p: Promise<unknown>): Promise<ProblemError> {
  try {
    await p;
  } catch (err) {
    return asProblem(err);
  }
  throw new Error('expected a problem');
}

describe('quote redemption', () => {
  it('lets exactly one of 20 concurrent booking requests redeem a quote; the others get 409, never naming its booking', async () => {
    const quoteId = await newQuote(stack);
    const attempts = Array.from({ length: 20 }, (_, i) => ({
      requestId: `req-${i}-${randomUUID()}`,
      bookingRef: `BK${i}`,
    }));
    const results = await Promise.allSettled(attempts.map((a) => redeemQuote(stack.app.services, quoteId, a)));

    const won = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const lost = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(19);
    for (const err of lost.map(asProblem)) {
      expect(err.status).toBe(409);
      expect(err.code).toBe('quote_already_redeemed');
      // Another request is not told whose booking it made (src/bookings/ownership.ts).
      expect(err.extra.booking_reference).toBeUndefined();
      expect(err.message).not.toContain(won[0]!.bookingRef);
    }
    const [row] = await stack.sql`select status, booking_ref, redemption_request_id from quotes where id = ${quoteId}`;
    expect(row).toEqual({
      status: 'redeemed',
      booking_ref: won[0]!.bookingRef,
      redemption_request_id: won[0]!.requestId,
    });
  });

  it('gives a retried booking request the same redemption instead of an error, before and after the workflow closes', async () => {
    const quoteId = await newQuote(stack);
    const request = { requestId: randomUUID(), bookingRef: 'BKRETRY' };
    const first = await redeemQuote(stack.app.services, quoteId, request);
    const again = await redeemQuote(stack.app.services, quoteId, request);
    expect(again).toEqual(first);
    const handle = stack.client.workflow.getHandle(quoteWorkflowId(quoteId));
    await handle.result();
    expect(await redeemQuote(stack.app.services, quoteId, request)).toEqual(first);
    const other = await problemOf(
      redeemQuote(stack.app.services, quoteId, { requestId: randomUUID(), bookingRef: 'BKOTHER' }),
    );
    expect(other.status).toBe(409);
    expect(other.extra.booking_reference).toBeUndefined();
    expect(other.message).not.toContain('BKRETRY');
  });

  it('answers 404 for a quote that never existed', async () => {
    const err = await problemOf(redeemQuote(stack.app.services, randomUUID(), { requestId: 'r', bookingRef: 'B' }));
    expect(err.status).toBe(404);
    expect(err.code).toBe('quote_not_found');
  });

  it('expires an unredeemed quote when its validity runs out: record, workflow and redemption all say so', async () => {
    const quoteId = await newQuote(shortLived);
    const handle = shortLived.client.workflow.getHandle(quoteWorkflowId(quoteId));
    expect((await handle.query(quoteStateQuery)).status).toBe('open');
    await eventually(
      async () => {
        const [row] = await shortLived.sql`select status from quotes where id = ${quoteId}`;
        return row?.status === 'expired' ? true : undefined;
      },
      STACK_WAIT_MS,
      'quote to expire',
    );
    expect((await handle.result()).status).toBe('expired');
    const err = await problemOf(
      redeemQuote(shortLived.app.services, quoteId, { requestId: 'late', bookingRef: 'BKLATE' }),
    );
    expect(err.status).toBe(410);
    expect(err.code).toBe('quote_expired');
    // The booking route says the same.
    const booking = await shortLived.app.inject({
      method: 'POST',
      url: '/api/public/bookings/create',
      payload: {
        quote_id: quoteId,
        passenger_name: 'Late Larry',
        passenger_phone_whatsapp: '+447400123459',
        payment_method: 'account',
      },
    });
    expect(booking.statusCode).toBe(410);
    expect(booking.json().code).toBe('quote_expired');
  });
});
