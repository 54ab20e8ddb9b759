// A driver's licences as the business states them: the dates on record and when the driver is
// told before the first runs out. (Offers stop by themselves at expiry: dispatch skips a driver whose
// licence is out of date.) Shared by src/, activities/ and workflows/ (whose contract is
// workflows/drivers/definitions.ts), so it stays pure: no Node built-ins, no I/O, nothing imported
// from outside src/model/.

/** How long before expiry the driver is told. */
export const LICENCE_REMINDER_DAYS = 14;
/** And told again, the last warning before offers stop (0.4.0). */
export const LICENCE_WARNING_DAYS = 3;

export interface LicenceDates {
  /** YYYY-MM-DD, or null when not on record. */
  driverLicenceExpires: string | null;
  vehicleLicenceExpires: string | null;
}

/** The first of the two expiry dates, as the day a reminder is about. */
export function firstExpiry(d: LicenceDates): string | null {
  const dates = [d.driverLicenceExpires, d.vehicleLicenceExpires].filter((x): x is string => x !== null);
  return dates.length === 0 ? null : dates.sort()[0]!;
}

/** The instant to remind at: 09:00 UTC, a fortnight before the expiry day. */
export function reminderAt(expires: string): number {
  return Date.parse(`${expires}T09:00:00Z`) - LICENCE_REMINDER_DAYS * 86_400_000;
}

/** The instant of the last warning: 09:00 UTC, 3 days before the expiry day. */
export function warningAt(expires: string): number {
  return Date.parse(`${expires}T09:00:00Z`) - LICENCE_WARNING_DAYS * 86_400_000;
}
