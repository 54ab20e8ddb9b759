// The delivery workflow's Temporal contract: its id, input, signal and failure type, which the event
// pump, the API and the worker agree on. The retry policy is src/model/partners.ts. Imported by
// workflow code, so it stays free of Node built-ins and I/O.
import { defineSignal } from '@temporalio/workflow';
import type { DeliveryPolicy } from '../../src/model/partners.js';

const PREFIX = 'delivery:';

/** One workflow per sender and booking: that booking's events go out one at a time, in order. */
export function deliveryWorkflowId(partnerId: string, bookingRef: string): string {
  return `${PREFIX}${partnerId}:${bookingRef}`;
}

export function deliveryFromWorkflowId(workflowId: string): { partnerId: string; bookingRef: string } | null {
  const m = /^delivery:([a-z0-9][a-z0-9-]{1,39}):([A-Z0-9]+)$/.exec(workflowId);
  return m ? { partnerId: m[1]!, bookingRef: m[2]! } : null;
}

export interface DeliveryStart {
  partnerId: string;
  bookingRef: string;
  policy?: DeliveryPolicy;
}

/** Sent when a booking records events (or a replay is asked for): look for due events now. */
export const eventsRecordedSignal = defineSignal('eventsRecorded');

/** The ApplicationFailure type of a failed attempt (retried by the policy). */
export const DELIVERY_FAILURE = 'PartnerDeliveryFailed';
