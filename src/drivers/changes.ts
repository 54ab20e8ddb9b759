import {
  admitCode,
  admitGuess,
  lockSubject,
  recordRightGuess,
  refuseWrongCode,
  servedMobile,
} from '../auth/code-guard.js';
import { hashCode, hashSecret, newCode, sameDigest } from '../auth/secrets.js';
import { recordStaffAction, type StaffMember } from '../auth/staff.js';
import {
  renderDriverChangeApprovedText,
  renderDriverChangeRefusedText,
  renderDriverPhoneCodeText,
} from '../notify/templates.js';
import { Refusal, type RefusedField } from '../refusal.js';
import type { Services } from '../services.js';
import { MAX_DOCUMENT_BYTES } from './application-limits.js';
import * as changes from './change-store.js';
import { formatRegistration } from '../notify/car.js';
import { readBase64Document, sniffDocumentType } from './onboarding.js';
import { findDriver, liveDriverWithPhone, type DriverRow } from './store.js';

// Drivers keep their papers current from the app (issue 24, item 5): a renewed licence (new expiry
// dates and the document), a changed vehicle, or a new phone proved by a code texted to it. Each
// waits for staff as a pending change (one per kind: a new one replaces the old, and the driver is
// told so); approval writes it onto the driver, tells them (app and one text) and, for licences,
// restarts the licence watch, so a driver who had lapsed is offered jobs again at once.

export type ChangeKind = changes.ChangeKind;

interface Upload {
  contentType: string;
  base64: string;
}

const KIND_WORDS: Record<ChangeKind, string> = {
  licences: 'renewed licence',
  vehicle: 'vehicle change',
  phone: 'new phone number',
};

/** Every field's problem at once, as the form shows them: one refusal naming them all. */
function refuseFields(fields: RefusedField[]): void {
  if (fields.length === 0) return;
  throw Refusal.invalid(
    'validation_failed',
    `Please check: ${fields.map((f) => `${f.name.replace(/[._]/g, ' ')} ${f.message}`).join('; ')}.`,
    { fields },
  );
}

const today = () => new Date().toISOString().slice(0, 10);
const isoDay = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);

export interface LicenceRenewal {
  driverLicence: { expires: string; document: Upload } | null;
  vehicleLicence: { expires: string; document: Upload } | null;
}

async function driverOrRefuse(s: Pick<Services, 'sql'>, driverId: string): Promise<DriverRow> {
  const d = await findDriver(s.sql, driverId);
  if (!d || (d.status !== 'approved' && d.status !== 'suspended'))
    throw Refusal.forbidden('not_approved', 'Only an approved driver can send changes.');
  return d;
}

function submitted(kind: ChangeKind, replaced: boolean): string {
  return `Your ${KIND_WORDS[kind]} is waiting for review.${replaced ? ` It replaces the ${KIND_WORDS[kind]} you sent before, which will not be reviewed.` : ''}`;
}

export async function submitLicenceRenewal(s: Pick<Services, 'sql'>, driverId: string, r: LicenceRenewal) {
  const d = await driverOrRefuse(s, driverId);
  const problems: RefusedField[] = [];
  const documents: changes.ChangeDocument[] = [];
  const held = { driver_licence: isoDay(d.driver_licence_expires), vehicle_licence: isoDay(d.vehicle_licence_expires) };
  for (const [kind, renewed] of [
    ['driver_licence', r.driverLicence],
    ['vehicle_licence', r.vehicleLicence],
  ] as const) {
    if (!renewed) continue;
    if (renewed.expires < today())
      problems.push({ name: `${kind}.expires`, message: 'is in the past: send the renewed licence' });
    else if (held[kind] !== null && renewed.expires <= held[kind]) {
      problems.push({ name: `${kind}.expires`, message: `must be later than the expiry date we hold (${held[kind]})` });
    }
    const doc = readBase64Document(renewed.document.base64);
    if (!doc) {
      problems.push({ name: `${kind}.document.data_base64`, message: 'must be base64' });
      continue;
    }
    if (doc.sizeBytes === 0 || doc.sizeBytes > MAX_DOCUMENT_BYTES) {
      problems.push({
        name: `${kind}.document.data_base64`,
        message: `must be between 1 byte and ${MAX_DOCUMENT_BYTES / 1024 / 1024} MB`,
      });
      continue;
    }
    const sniffed = sniffDocumentType(doc.head);
    if (!sniffed || sniffed !== renewed.document.contentType) {
      problems.push({
        name: `${kind}.document.content_type`,
        message: 'must be a PDF, JPEG or PNG, and be what it says it is',
      });
      continue;
    }
    documents.push({ kind, contentType: sniffed, base64: doc.base64, sizeBytes: doc.sizeBytes, sha256: doc.sha256 });
  }
  refuseFields(problems);
  const details: changes.LicenceChange = {
    driverLicenceExpires: r.driverLicence?.expires ?? null,
    vehicleLicenceExpires: r.vehicleLicence?.expires ?? null,
  };
  return recorded(s, driverId, 'licences', details, documents);
}

export interface VehicleChangeInput {
  vehicleRegistration: string;
  vehicleColour: string | null;
  vehicleType: string;
  seats: number;
  wheelchairAccessible: boolean;
}

export async function submitVehicleChange(s: Pick<Services, 'sql'>, driverId: string, v: VehicleChangeInput) {
  await driverOrRefuse(s, driverId);
  const problems: RefusedField[] = [];
  const registration = formatRegistration(v.vehicleRegistration);
  if (!registration) problems.push({ name: 'vehicle_registration', message: 'must be a UK registration' });
  // A wheelchair-accessible vehicle class is one: the flag and the class must agree.
  if (v.vehicleType === 'wav' && !v.wheelchairAccessible)
    problems.push({ name: 'wheelchair_accessible', message: 'must be yes for a wheelchair-accessible vehicle (wav)' });
  refuseFields(problems);
  const details: changes.VehicleChange = {
    ...v,
    vehicleRegistration: registration!,
    vehicleColour: v.vehicleColour ? v.vehicleColour.toLowerCase() : null,
  };
  return recorded(s, driverId, 'vehicle', details, []);
}

const CODE_TTL_MS = 10 * 60_000;
const MAX_ATTEMPTS = 5;

/** The new number must be a served mobile other than the one on record; answered in the form's words. */
function newPhoneOrRefuse(s: Pick<Services, 'config'>, d: DriverRow, phone: string): void {
  const served = servedMobile(phone, s.config.SIGN_IN_CODE_COUNTRIES);
  if (!served.ok)
    throw Refusal.invalid('number_not_served', `Sorry: ${served.reason}.`, {
      field: { name: 'phone', message: served.reason },
    });
  if (phone === d.phone)
    throw Refusal.invalid('same_phone', 'That is the phone number we already have for you.', {
      field: { name: 'phone', message: 'is the number we already have' },
    });
}

/**
 * ...and nobody else drives with it. Asked only once the code texted to the number has come back,
 * so only whoever holds that phone can learn that it is a driver's.
 */
async function phoneFreeOrRefuse(s: Pick<Services, 'sql'>, d: DriverRow, phone: string): Promise<void> {
  const other = await liveDriverWithPhone(s.sql, phone);
  if (other && other !== d.id)
    throw Refusal.conflict('phone_in_use', 'Another driver uses this phone number. Call us if it is yours.');
}

/**
 * Texts a code to the new phone, counted as sign-in codes are (per number and address, per number,
 * per network, and the day's ceiling, from the share for new numbers), and locked by wrong guesses
 * like a sign-in to that number. Answered the same whether or not the number is another driver's
 * (the code goes to it either way, and is counted), so the route tells a signed-in driver nothing
 * of who else drives: a number in use is refused when its code is confirmed (submitPhoneChange).
 */
export async function requestPhoneCode(
  s: Pick<Services, 'sql' | 'config' | 'notifier'>,
  driverId: string,
  phone: string,
  ctx: { address: string },
): Promise<void> {
  const d = await driverOrRefuse(s, driverId);
  newPhoneOrRefuse(s, d, phone);
  // A number to be proved, whoever's it turns out to be: never a known recipient of the ceiling.
  await admitCode(s, {
    channel: 'sms',
    audience: 'driver',
    recipient: `phone:${phone}`,
    subject: lockSubject.driver(phone),
    address: ctx.address,
    known: false,
  });
  const code = newCode();
  await changes.savePhoneCode(
    s.sql,
    driverId,
    phone,
    hashCode(s.config.JOB_LINK_SECRET, `${driverId}:${phone}`, code),
    new Date(Date.now() + CODE_TTL_MS),
  );
  await s.notifier.send({
    channel: 'sms',
    to: phone,
    body: renderDriverPhoneCodeText(code, CODE_TTL_MS / 60_000),
    idempotencyKey: `driver-phone-code:${driverId}:${hashSecret(code).slice(0, 16)}:${Date.now()}`,
    purpose: 'sign_in_code',
  });
}

/** The right code for the new phone: the change goes to staff, unless another driver uses the number (409 phone_in_use). */
export async function submitPhoneChange(
  s: Pick<Services, 'sql' | 'config'>,
  driverId: string,
  phone: string,
  code: string,
  ctx: { address: string },
) {
  const d = await driverOrRefuse(s, driverId);
  const subject = lockSubject.driver(phone);
  await admitGuess(s, subject, ctx.address);
  const stored = await changes.takePhoneCodeAttempt(s.sql, driverId, phone, MAX_ATTEMPTS);
  if (!stored || !sameDigest(stored, hashCode(s.config.JOB_LINK_SECRET, `${driverId}:${phone}`, code))) {
    const refusal = Refusal.invalid('invalid_code', 'That code is not right. Ask for a new one if it has expired.', {
      field: { name: 'code', message: 'is not the code we texted' },
    });
    return refuseWrongCode(s, subject, ctx.address, refusal);
  }
  await changes.spendPhoneCode(s.sql, driverId);
  await recordRightGuess(s, subject, ctx.address);
  newPhoneOrRefuse(s, d, phone);
  await phoneFreeOrRefuse(s, d, phone);
  return recorded(s, driverId, 'phone', { phone }, []);
}

async function recorded(
  s: Pick<Services, 'sql'>,
  driverId: string,
  kind: ChangeKind,
  details: changes.ChangeDetails,
  documents: changes.ChangeDocument[],
) {
  const { id, replaced } = await changes.insertChange(s.sql, driverId, kind, details, documents);
  const change = await changes.findChange(s.sql, id);
  return { change: presentChange(change!), replaced, message: submitted(kind, replaced) };
}

export async function changesForDriver(s: Pick<Services, 'sql'>, driverId: string) {
  return (await changes.changesOfDriver(s.sql, driverId)).map(presentChange);
}

/** "Driver licence to 2027-11-30", "MA19 XYZ, silver, saloon, 4 seats", "+447400123456". */
export function changeSummary(kind: ChangeKind, d: Record<string, unknown>): string {
  const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : null);
  if (kind === 'licences') {
    const driver = str(d.driverLicenceExpires);
    const vehicle = str(d.vehicleLicenceExpires);
    return [driver ? `driver licence to ${driver}` : null, vehicle ? `vehicle licence to ${vehicle}` : null]
      .filter(Boolean)
      .join(', ')
      .replace(/^./, (c) => c.toUpperCase());
  }
  if (kind === 'vehicle') {
    return [
      str(d.vehicleRegistration),
      str(d.vehicleColour),
      str(d.vehicleType),
      `${str(d.seats)} seats`,
      d.wheelchairAccessible ? 'wheelchair accessible' : null,
    ]
      .filter(Boolean)
      .join(', ');
  }
  return `New phone ${str(d.phone)}`;
}

function presentChange(c: changes.ChangeRow) {
  return {
    id: c.id,
    kind: c.kind,
    status: c.status,
    details: c.details,
    summary: changeSummary(c.kind, c.details),
    documents: c.documents,
    submitted_at: c.submitted_at.toISOString(),
    decided_at: c.decided_at?.toISOString() ?? null,
    reason: c.reason,
  };
}

export async function pendingChangesForStaff(s: Pick<Services, 'sql'>) {
  return (await changes.pendingChanges(s.sql)).map((c) => ({
    ...presentChange(c),
    driver_id: c.driver_id,
    driver_name: c.driver.name,
    driver_phone: c.driver.phone,
    driver_status: c.driver.status,
    current: onRecord(c.kind, c.driver),
  }));
}

function onRecord(kind: ChangeKind, d: changes.DriverOnRecord): Record<string, unknown> {
  if (kind === 'licences')
    return { driverLicenceExpires: d.driver_licence_expires, vehicleLicenceExpires: d.vehicle_licence_expires };
  if (kind === 'vehicle') {
    return {
      vehicleRegistration: d.vehicle_registration,
      vehicleColour: d.vehicle_colour,
      vehicleType: d.vehicle_type,
      seats: d.seats,
      wheelchairAccessible: d.wheelchair_accessible,
    };
  }
  return { phone: d.phone };
}

/**
 * Staff approve or refuse a pending change (a reason is required to refuse; the driver is told it).
 * Recorded in staff_actions. Repeating the same decision is a retry: the watch and the text, each
 * idempotent, are done again in case the first attempt died before them.
 */
export async function decideDriverChange(
  s: Pick<Services, 'sql' | 'notifier' | 'licences' | 'config'>,
  staff: StaffMember,
  changeId: string,
  action: 'approve' | 'refuse',
  reason: string | null,
): Promise<ReturnType<typeof presentChange>> {
  if (action === 'refuse' && !reason)
    throw Refusal.invalid('validation_failed', 'Say why it is refused: the driver is told.', {
      field: { name: 'reason', message: 'is required to refuse' },
    });
  const decision = action === 'approve' ? 'approved' : 'refused';
  const outcome = await changes.decideChange(s.sql, { changeId, decision, staffId: staff.id, reason });
  let change: changes.ChangeRow | null;
  if (outcome.result === 'phone_taken')
    throw Refusal.conflict('phone_in_use', 'Another driver now uses this phone number: refuse the change, saying so.');
  if (outcome.result === 'not_pending') {
    change = await changes.findChange(s.sql, changeId);
    if (!change) throw Refusal.notFound('change_not_found', `No change ${changeId}.`);
    if (change.status !== decision) {
      throw Refusal.conflict(
        'change_decided',
        change.status === 'replaced'
          ? 'The driver has sent a newer one in place of this change: decide that one.'
          : `This change is already ${change.status}.`,
      );
    }
  } else {
    change = outcome.change;
    await recordStaffAction(s.sql, {
      staffId: staff.id,
      action: `driver.change_${decision === 'approved' ? 'approve' : 'refuse'}`,
      subjectKind: 'driver',
      subjectId: change.driver_id,
      reason,
      details: { change_id: change.id, kind: change.kind, ...change.details },
    });
  }
  const driver = await findDriver(s.sql, change.driver_id);
  if (!driver) throw Refusal.notFound('driver_not_found', `No driver ${change.driver_id}.`);
  if (decision === 'approved' && change.kind === 'licences') {
    await s.licences.renew(driver.id, {
      driverLicenceExpires: isoDay(driver.driver_licence_expires),
      vehicleLicenceExpires: isoDay(driver.vehicle_licence_expires),
    });
  }
  await s.notifier.send({
    channel: 'sms',
    // An approved phone is the driver's phone now: the text goes there.
    to: driver.phone,
    body:
      decision === 'approved'
        ? renderDriverChangeApprovedText(change.kind)
        : renderDriverChangeRefusedText(change.kind, change.reason ?? ''),
    idempotencyKey: `driver-change:${change.id}:${decision}`,
  });
  return presentChange((await changes.findChange(s.sql, change.id))!);
}

export async function changeDocumentForStaff(s: Pick<Services, 'sql'>, changeId: string, documentId: string) {
  return changes.changeDocument(s.sql, changeId, documentId);
}
