// The drivers' workflows' Temporal contract: their ids, inputs, messages and state, which the
// application, the activities and the worker must agree on. The licence rules (when a driver is
// told) are src/model/drivers.ts. Imported by workflow code, so it stays free of Node built-ins and I/O.
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { LicenceDates } from '../../src/model/drivers.js';
import { WATCH_CHECKS_PER_RUN, type WatchInput, type WatchState } from '../watch.js';

// The driver's licences over time: a reminder a fortnight before the first one runs out, and a
// warning 3 days before.

export const LICENCE_WORKFLOW_PREFIX = 'licence:';
export function licenceWorkflowId(driverId: string): string {
  return `${LICENCE_WORKFLOW_PREFIX}${driverId}`;
}

export interface LicenceWorkflowInput extends LicenceDates {
  driverId: string;
}

export interface LicenceState extends LicenceDates {
  /** The day the first licence runs out (its last valid day), or null. */
  expires: string | null;
  remindedFor: string[];
  /** Expiry dates the 3-day warning went out for (always empty on a watch started before 0.4.0). */
  warnedFor: string[];
}

/** New dates after a renewal: the reminder is worked out again. */
export const licencesRenewedSignal = defineSignal<[LicenceDates]>('licencesRenewed');
export const licenceStateQuery = defineQuery<LicenceState>('licenceState');

// Suspension: staff suspend a driver (src/drivers/onboarding.ts); one short workflow per suspension
// takes the driver off every booking, so the withdrawal is finished even if the API process dies
// right after the suspension is written.

export const SUSPENSION_WORKFLOW_PREFIX = 'driver-suspension:';
/**
 * One per suspension: the driver and the moment their status became suspended. A retried decision
 * names the same suspension (the moment does not move), so it starts nothing twice; a later
 * suspension, after a reinstatement, is a new one.
 */
export function suspensionWorkflowId(driverId: string, suspendedAt: Date): string {
  return `${SUSPENSION_WORKFLOW_PREFIX}${driverId}:${suspendedAt.getTime()}`;
}

export interface SuspensionInput {
  driverId: string;
}

export interface SuspensionResult {
  /** The bookings told (driverSuspended signal): their open job card or job was the driver's. */
  signalled: string[];
  /** Bookings whose workflow had already closed: nothing left to take off the driver. */
  closed: string[];
}

// The location watch: one long-running workflow for the service, which each minute texts online
// drivers whose app has stopped sending its position, before dispatch passes them over
// (workflows/watch.ts).

/** One id for the service: every worker starts it with USE_EXISTING, so it runs once. */
export const LOCATION_WATCH_WORKFLOW_ID = 'drivers:location-watch';
export const LOCATION_WATCH_CHECKS_PER_RUN = WATCH_CHECKS_PER_RUN;

/** Looks in this run, drivers warned in this run, and drivers warned across runs. */
export type LocationWatchState = WatchState<'warned'>;
export type LocationWatchInput = WatchInput<'warned'>;

export const locationWatchStateQuery = defineQuery<LocationWatchState>('locationWatchState');
