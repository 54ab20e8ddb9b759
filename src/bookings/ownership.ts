import { admitCode, servedMobile } from '../auth/code-guard.js';
import { hashSecret, newSecret } from '../auth/secrets.js';
import { renderClaimLinkText, type TripSummary } from '../notify/templates.js';
import { checkPassengerEmail } from '../passengers/email.js';
import { Refusal } from '../refusal.js';
import type { Services } from '../services.js';
import { markVerified } from '../passengers/verification.js';
import { verifyConfirmToken } from './confirm-link.js';
import { BOOKING_REF_PATTERN } from './identity.js';
import { MANAGE_TOKEN_PREFIX } from './manage-tokens.js';
import * as tokens from './ownership-store.js';
import { findBooking } from './store.js';

// A booking belongs to whoever made it (issue 20). A trip (one phone, between the same places at
// the same time) is still one ride, however many ask for it; what changes is the answer to a
// repeated request. Only the same caller (the same API key, signed-in passenger or partner, or an
// anonymous caller's same Idempotency-Key) gets the booking again with a manage token. Anyone
// else gets 409 and never the token or the passenger's details; an anonymous request giving the
// booking's own email gets the reference and status (what that email can look up anyway), but no
// token. Either way the booking's phone may be texted a link to take charge of it: that link
// revokes every token handed out before and lets the passenger put their own name and email on it.
// docs/security/threat-model.md tells the whole story.

const CLAIM_TOKEN_PREFIX = 'bcl_';
const CLAIM_TTL_MS = 24 * 3600_000;

// Who is asking and how a repeat is answered live in request-owner.ts (pure, so the worker's
// activities use them without this module's services); exported here for the routes.
export { repeatedBy, requestOwner } from './request-owner.js';

/**
 * The link in the booking email proves the passenger reads that mailbox: the address is marked
 * verified (which also releases any booking an older release held for it) and the opener gets a
 * manage token, so the link both confirms and manages the booking. Null when the link is not this
 * booking's (a forged or mistyped token, or a booking without that email).
 */
export async function openFromEmailLink(s: Pick<Services, 'sql' | 'temporal' | 'config'>, ref: string, token: string): Promise<{ manageToken: string } | null> {
  if (!BOOKING_REF_PATTERN.test(ref) || !verifyConfirmToken(s.config.JOB_LINK_SECRET, ref, token)) return null;
  const row = await findBooking(s.sql, ref);
  if (!row?.passenger_email) return null;
  await markVerified(s, row.passenger_email.toLowerCase());
  return { manageToken: await issueManageToken(s.sql, ref, 'email') };
}

/** A new manage token for this booking's holder; the plain token is only ever in this reply. */
export async function issueManageToken(sql: Services['sql'], ref: string, holder: string): Promise<string> {
  const token = newSecret(MANAGE_TOKEN_PREFIX);
  await tokens.insertManageToken(sql, { tokenHash: hashSecret(token), ref, holder });
  return token;
}

export async function manageTokenHolds(sql: Services['sql'], ref: string, token: string): Promise<boolean> {
  return token.startsWith(MANAGE_TOKEN_PREFIX) && tokens.manageTokenValid(sql, ref, hashSecret(token));
}

/**
 * Texts the booking's phone a link to take charge of it, if the code guard admits an SMS to that
 * number now (a served mobile, within the per-address, per-phone and daily limits; the same
 * allowances as sign-in codes, so this is no way round them). False when nothing was sent.
 */
export async function sendClaimLink(
  s: Pick<Services, 'sql' | 'config' | 'notifier'>,
  trip: TripSummary & { phone: string },
  ctx: { address: string },
): Promise<boolean> {
  if (!servedMobile(trip.phone, s.config.SIGN_IN_CODE_COUNTRIES).ok) return false;
  try {
    await admitCode(s, { channel: 'sms', audience: 'claim', recipient: `phone:${trip.phone}`, subject: `claim:${trip.phone}`, address: ctx.address });
  } catch (err) {
    // A limit reached, or codes paused: no link this time, and the caller is not told why.
    if (err instanceof Refusal) return false;
    throw err;
  }
  const token = newSecret(CLAIM_TOKEN_PREFIX);
  await tokens.insertClaim(s.sql, { tokenHash: hashSecret(token), ref: trip.ref, phone: trip.phone, expiresAt: new Date(Date.now() + CLAIM_TTL_MS) });
  await s.notifier.send({
    channel: 'sms',
    to: trip.phone,
    body: renderClaimLinkText(trip, `${s.config.PUBLIC_BASE_URL}/claim/${token}`),
    idempotencyKey: `claim:${hashSecret(token).slice(0, 24)}`,
    bookingRef: trip.ref,
    purpose: 'claim_link',
  });
  return true;
}

/** The passenger asks for the claim link by reference: sent only when the phone is the booking's. */
export async function requestClaimLink(s: Pick<Services, 'sql' | 'config' | 'notifier'>, ref: string, phone: string, ctx: { address: string }): Promise<void> {
  const row = await findBooking(s.sql, ref);
  // The same answer whether or not the booking exists or the phone is its own: no oracle.
  if (!row || row.passenger_phone !== phone || row.status === 'cancelled' || row.status === 'completed') return;
  await sendClaimLink(s, { ref, phone, pickupLabel: row.pickup.label, dropoffLabel: row.dropoff.label, pickupAt: row.pickup_at }, ctx);
}

/** The booking a claim link names, while the link can still be used. */
export async function openClaim(s: Pick<Services, 'sql'>, token: string) {
  if (!token.startsWith(CLAIM_TOKEN_PREFIX)) return null;
  const claim = await tokens.findClaim(s.sql, hashSecret(token));
  if (!claim || claim.used_at || claim.expires_at.getTime() <= Date.now()) return null;
  const booking = await findBooking(s.sql, claim.booking_ref);
  return booking && booking.passenger_phone === claim.phone ? booking : null;
}

/**
 * The passenger takes charge: every manage token handed out before is revoked, their name and
 * email (if given) go on the booking, and they get a token of their own. 410 for a link spent,
 * expired or unknown; 400 for an email that cannot be used.
 */
export async function claimBooking(
  s: Pick<Services, 'sql'>,
  token: string,
  contact: { name?: string | undefined; email?: string | undefined },
): Promise<{ ref: string; manageToken: string }> {
  const booking = await openClaim(s, token);
  let email: string | null = null;
  if (contact.email?.trim()) {
    const checked = checkPassengerEmail(contact.email);
    if (!checked.ok) throw Refusal.invalid(checked.code, checked.reason, { field: { name: 'email', message: checked.reason } });
    email = checked.email;
  }
  if (!booking || !(await tokens.spendClaim(s.sql, hashSecret(token)))) {
    throw Refusal.gone('claim_link_spent', 'This link has been used or has expired. Ask for a new one from the booking page.');
  }
  await tokens.revokeManageTokens(s.sql, booking.ref);
  await tokens.setPassengerContact(s.sql, booking.ref, { name: contact.name?.trim() || null, email });
  return { ref: booking.ref, manageToken: await issueManageToken(s.sql, booking.ref, 'phone') };
}
