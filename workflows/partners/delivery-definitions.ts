// Everything the event pump, the API and the worker agree on about delivering a booking's status
// events to its sender, declared once. Imported by workflow code, so it stays free of Node built-ins and I/O.
import { defineSignal } from '@temporalio/workflow';

const PREFIX = 'delivery:';

/** One workflow per sender and booking: that booking's events go out one at a time, in order. */
export function deliveryWorkflowId(partnerId: string, bookingRef: string): string {
  return `${PREFIX}${partnerId}:${bookingRef}`;
}

export function deliveryFromWorkflowId(workflowId: string): { partnerId: string; bookingRef: string } | null {
  const m = /^delivery:([a-z0-9][a-z0-9-]{1,39}):([A-Z0-9]+)$/.exec(workflowId);
  return m ? { partnerId: m[1]!, bookingRef: m[2]! } : null;
}

export interface DeliveryPolicy {
  /** First wait after a failed attempt; doubles each time up to maxRetrySeconds. */
  initialRetrySeconds: number;
  maxRetrySeconds: number;
  /** An event not delivered this long after its first attempt is given up (marked failed), and the next one goes. */
  giveUpAfterSeconds: number;
  /** With nothing left to deliver and nothing new for this long, the workflow closes (the next event starts it again). */
  idleSeconds: number;
}

/**
 * 10 s, 20 s, 40 s ... then every 30 minutes, for 72 hours: about 150 attempts, so a receiver down
 * for a weekend still gets everything once it is back.
 */
export const DEFAULT_DELIVERY_POLICY: DeliveryPolicy = {
  initialRetrySeconds: 10,
  maxRetrySeconds: 30 * 60,
  giveUpAfterSeconds: 72 * 3600,
  idleSeconds: 10 * 60,
};

export interface DeliveryStart {
  partnerId: string;
  bookingRef: string;
  policy?: DeliveryPolicy;
}

/** Sent when a booking records events (or a replay is asked for): look for due events now. */
export const eventsRecordedSignal = defineSignal('eventsRecorded');

/** The ApplicationFailure type of a failed attempt (retried by the policy). */
export const DELIVERY_FAILURE = 'PartnerDeliveryFailed';
