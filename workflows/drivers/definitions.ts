import { defineQuery, defineSignal } from '@temporalio/workflow';

// The driver's licences over time: a reminder a fortnight before the first one runs out. (Offers
// stop by themselves at expiry: dispatch skips a driver whose licence is out of date.)

export const LICENCE_WORKFLOW_PREFIX = 'licence:';
export function licenceWorkflowId(driverId: string): string {
  return `${LICENCE_WORKFLOW_PREFIX}${driverId}`;
}

/** How long before expiry the driver is told. */
export const LICENCE_REMINDER_DAYS = 14;

export interface LicenceDates {
  /** YYYY-MM-DD, or null when not on record. */
  driverLicenceExpires: string | null;
  vehicleLicenceExpires: string | null;
}

export interface LicenceWorkflowInput extends LicenceDates {
  driverId: string;
}

export interface LicenceState extends LicenceDates {
  /** The day the first licence runs out (its last valid day), or null. */
  expires: string | null;
  remindedFor: string[];
}

/** New dates after a renewal: the reminder is worked out again. */
export const licencesRenewedSignal = defineSignal<[LicenceDates]>('licencesRenewed');
export const licenceStateQuery = defineQuery<LicenceState>('licenceState');

/** The first of the two expiry dates, as the day a reminder is about. */
export function firstExpiry(d: LicenceDates): string | null {
  const dates = [d.driverLicenceExpires, d.vehicleLicenceExpires].filter((x): x is string => x !== null);
  return dates.length === 0 ? null : dates.sort()[0]!;
}

/** The instant to remind at: 09:00 UTC, a fortnight before the expiry day. */
export function reminderAt(expires: string): number {
  return Date.parse(`${expires}T09:00:00Z`) - LICENCE_REMINDER_DAYS * 86_400_000;
}
