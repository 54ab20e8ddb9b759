// Sub-contracting, as the law puts it (Local Government (Miscellaneous Provisions) Act 1976
// ss.55A/55B): a booking of ours may go to another licensed operator, and it is an offence to pass
// it on knowing the vehicle would be unlicensed for it. A booking leaves us two ways: a job card to
// a driver of a partner fleet, or the job handed to an exchange fleet. Either way the receiving
// operator's licence must be on file, of the kind the vehicle needs, and in date at pickup
// (docs/records.md, "Sub-contracting"). Pure: dispatch's rules and the exchange share it.

export const OPERATOR_LICENCE_KINDS = ['private_hire', 'psv'] as const;
/** private_hire: a council's private hire operator licence; psv: a Traffic Commissioner's PSV operator licence. */
export type OperatorLicenceKind = (typeof OPERATOR_LICENCE_KINDS)[number];

export const OPERATOR_LICENCE_HOLDERS = ['partner_fleet', 'exchange_fleet'] as const;
export type OperatorLicenceHolder = (typeof OPERATOR_LICENCE_HOLDERS)[number];

/** A private hire vehicle is built to carry fewer than nine passengers; one of nine or more seats is a PSV. */
export const PHV_MAX_PASSENGER_SEATS = 8;

/** The licence a vehicle with this many passenger seats is operated under. */
export const licenceKindForSeats = (seats: number): OperatorLicenceKind =>
  seats > PHV_MAX_PASSENGER_SEATS ? 'psv' : 'private_hire';

/**
 * The receiving operator's licences on file, each as the first instant it is no longer valid (the
 * day after its expiry), by kind; null where none of that kind is on file.
 */
export type LicencesOnFile = Record<OperatorLicenceKind, Date | null>;

/** Why a booking may not go to this operator, in the decision log's words. */
export type SubcontractRefusal =
  'operator_licence_missing' | 'operator_licence_wrong_kind' | 'operator_licence_expired';

export const SUBCONTRACT_REFUSALS: readonly SubcontractRefusal[] = [
  'operator_licence_missing',
  'operator_licence_wrong_kind',
  'operator_licence_expired',
];

/**
 * Whether something valid until `invalidFrom` (the day after a licence's or certificate's expiry)
 * still holds for a job picked up at `pickupAt` (and now, for a pickup already past). A date that
 * cannot be read holds nothing.
 */
export function inForceAt(invalidFrom: Date | null | undefined, job: { pickupAt: Date; now: Date }): boolean {
  if (!invalidFrom || Number.isNaN(invalidFrom.getTime())) return false;
  return invalidFrom.getTime() > Math.max(job.now.getTime(), job.pickupAt.getTime());
}

/**
 * Whether the operator may receive a job needing `kind`, picked up at `pickupAt`: a licence of
 * that kind valid at pickup (and now, for a pickup already past); null when it may.
 */
export function subcontractRefusal(
  licences: LicencesOnFile,
  kind: OperatorLicenceKind,
  job: { pickupAt: Date; now: Date },
): SubcontractRefusal | null {
  const invalidFrom = licences[kind];
  // Fails closed: a date that cannot be read is no licence at all.
  if (invalidFrom === null || Number.isNaN(invalidFrom.getTime())) {
    return OPERATOR_LICENCE_KINDS.some((k) => k !== kind && licences[k] !== null)
      ? 'operator_licence_wrong_kind'
      : 'operator_licence_missing';
  }
  return inForceAt(invalidFrom, job) ? null : 'operator_licence_expired';
}
