import { placeForPeople } from '../model/places.js';
import { createHmac } from 'node:crypto';
import { admitCode, lockSubject, servedMobile } from '../auth/code-guard.js';
import { hashSecret, newSecret } from '../auth/secrets.js';
import { bookingClaimed } from '../notify/sending-policy-store.js';
import { renderBookingConfirmationEmail, renderClaimLinkText, type TripSummary } from '../notify/templates.js';
import { checkPassengerEmail, mailboxKey } from '../passengers/email.js';
import { refuseBlockedPassenger } from '../passengers/standing.js';
import { Refusal } from '../refusal.js';
import type { Services } from '../services.js';
import { markVerified } from '../passengers/verification.js';
import { confirmUrl, verifyConfirmToken } from './confirm-link.js';
import { releaseBookingsHeldFor } from './email-hold.js';
import { BOOKING_REF_PATTERN } from '../model/bookings.js';
import { MANAGE_TOKEN_PREFIX } from './manage-tokens.js';
import * as tokens from './ownership-store.js';
import { CLAIMED_PRINCIPAL } from './request-owner.js';
import { findBooking, type BookingWithDriver } from './store.js';

// A booking belongs to whoever made it (issue 20). A trip (one phone, between the same places at
// the same time) is still one ride, however many ask for it; what changes is the answer to a
// repeated request. Only the request that made it (the same signed-in passenger or partner, an
// anonymous caller's same Idempotency-Key, or under an API key the same key with the same
// Idempotency-Key) gets the booking again with a manage token. Another request under the same API
// key gets the booking without a token; an anonymous request giving the booking's own email the
// reference and status (what that email can look up anyway), but no token; anyone else 409 and
// never the token or the passenger's details. Either way the booking's phone may be texted a link
// to take charge of it, and taking charge is final (issue 33): every manage token, confirmation
// link and ownership the other party held ends, their email and notes leave the booking, and no
// request of theirs gets a token again. Sandbox and live never meet: a sandbox key's trip is
// another ride than the same trip asked for live (src/bookings/identity.ts), and no sandbox caller
// texts about a live booking. docs/security/threat-model.md tells the whole story.

const CLAIM_TOKEN_PREFIX = 'bcl_';
const CLAIM_TTL_MS = 24 * 3600_000;

// Who is asking and how a repeat is answered live in request-owner.ts (pure, so the worker's
// activities use them without this module's services); exported here for the routes.
export { repeatedBy, requestOwner } from './request-owner.js';

/**
 * The link in the booking email proves the passenger reads the mailbox it was sent to
 * (src/bookings/confirm-link.ts): opened while the booking still carries that mailbox in the same
 * claim generation and before it expires, the mailbox is marked verified (which also releases any
 * booking an older release held for it) and the opener gets the link's manage token. That token
 * is derived from the link, so opening the link again (a reload, a mail scanner) stores nothing new
 * and shows the same token. Null when the link is not this booking's as it is now (forged,
 * mistyped, expired, sent to an email the booking no longer carries, or sent before a claim).
 */
export async function openFromEmailLink(
  s: Pick<Services, 'sql' | 'bookings' | 'config'>,
  ref: string,
  token: string,
): Promise<{ manageToken: string } | null> {
  if (!BOOKING_REF_PATTERN.test(ref)) return null;
  const row = await findBooking(s.sql, ref);
  if (!row?.passenger_email || !verifyConfirmToken(s.config.JOB_LINK_SECRET, row, token)) return null;
  const mailbox = row.passenger_email.toLowerCase();
  const manageToken =
    MANAGE_TOKEN_PREFIX +
    createHmac('sha256', s.config.JOB_LINK_SECRET).update(`manage:${ref}:confirm-link:${token}`).digest('base64url');
  const still = await tokens.insertManageTokenForMailbox(s.sql, {
    tokenHash: hashSecret(manageToken),
    ref,
    holder: 'email',
    mailbox,
    generation: row.claim_generation ?? 0,
  });
  if (!still) return null;
  await markVerified(s, mailbox, (m) => releaseBookingsHeldFor(s, m));
  return { manageToken };
}

/**
 * A new manage token for the caller that owns the booking's request (`principal`); the plain token
 * is only ever in this reply. Null when the booking is no longer that caller's (its passenger took
 * charge of it in the meantime).
 */
export async function issueManageToken(sql: Services['sql'], ref: string, principal: string): Promise<string | null> {
  const token = newSecret(MANAGE_TOKEN_PREFIX);
  return (await tokens.insertManageTokenForOwner(sql, {
    tokenHash: hashSecret(token),
    ref,
    holder: principal,
    principal,
  }))
    ? token
    : null;
}

export async function manageTokenHolds(sql: Services['sql'], ref: string, token: string): Promise<boolean> {
  return token.startsWith(MANAGE_TOKEN_PREFIX) && tokens.manageTokenValid(sql, ref, hashSecret(token));
}

/**
 * Texts the booking's phone a link to take charge of it, if the code guard admits an SMS to that
 * number now (a served mobile, within the per-address, per-phone and daily limits; the same
 * allowances as sign-in codes, so this is no way round them). False when nothing was sent.
 *
 * A sandbox booking's link is never delivered (src/notify/sandbox.ts records it as withheld), so it
 * spends none of the phone's, the address's or the day's allowances, which belong to real
 * passengers: its link is derived from the reference, and recorded once per booking.
 */
export async function sendClaimLink(
  s: Pick<Services, 'sql' | 'config' | 'notifier'>,
  trip: TripSummary & { phone: string },
  ctx: { address: string; sandbox?: boolean | undefined },
): Promise<boolean> {
  if (!servedMobile(trip.phone, s.config.SIGN_IN_CODE_COUNTRIES).ok) return false;
  let token: string;
  if (ctx.sandbox) {
    // Only once its row says so (the first request may still be writing it): the notifier withholds
    // a text by the booking's row, and a text about a booking it cannot find would be delivered.
    const [row] = await s.sql<{ sandbox: boolean }[]>`select sandbox from bookings where ref = ${trip.ref}`;
    if (!row?.sandbox) return false;
    token =
      CLAIM_TOKEN_PREFIX +
      createHmac('sha256', s.config.JOB_LINK_SECRET).update(`claim:sandbox:${trip.ref}`).digest('base64url');
  } else {
    try {
      await admitCode(s, {
        channel: 'sms',
        audience: 'claim',
        recipient: `phone:${trip.phone}`,
        subject: `claim:${trip.phone}`,
        address: ctx.address,
      });
    } catch (err) {
      // A limit reached, or codes paused: no link this time, and the caller is not told why.
      if (err instanceof Refusal) return false;
      throw err;
    }
    token = newSecret(CLAIM_TOKEN_PREFIX);
  }
  await tokens.insertClaim(s.sql, {
    tokenHash: hashSecret(token),
    ref: trip.ref,
    phone: trip.phone,
    expiresAt: new Date(Date.now() + CLAIM_TTL_MS),
  });
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

/**
 * The passenger asks for the claim link by reference: sent only when the phone is the booking's,
 * and never by a sandbox caller about a live booking. The route answers before this runs (the
 * same reply, at the same time, whatever the phone: no oracle, not even a timing one).
 */
export async function requestClaimLink(
  s: Pick<Services, 'sql' | 'config' | 'notifier'>,
  ref: string,
  phone: string,
  ctx: { address: string; sandbox?: boolean | undefined },
): Promise<void> {
  const row = await findBooking(s.sql, ref);
  if (!row || row.passenger_phone !== phone || row.status === 'cancelled' || row.status === 'completed') return;
  if (ctx.sandbox && !row.sandbox) return;
  await sendClaimLink(
    s,
    {
      ref,
      phone,
      pickupLabel: placeForPeople(row.pickup_query, row.pickup),
      dropoffLabel: placeForPeople(row.dropoff_query, row.dropoff),
      pickupAt: row.pickup_at,
    },
    { address: ctx.address, sandbox: row.sandbox ?? false },
  );
}

/** The booking a claim link names, while the link can still be used. */
export async function openClaim(s: Pick<Services, 'sql'>, token: string) {
  if (!token.startsWith(CLAIM_TOKEN_PREFIX)) return null;
  const claim = await tokens.findClaim(s.sql, hashSecret(token));
  if (!claim || claim.used_at || claim.expires_at.getTime() <= Date.now()) return null;
  const booking = await findBooking(s.sql, claim.booking_ref);
  return booking && booking.passenger_phone === claim.phone ? booking : null;
}

/** What a claim did: the booking, her token, and whether her email was sent a confirmation link. */
export interface Claimed {
  ref: string;
  manageToken: string;
  /** The email she gave; null when she gave none (the booking then carries no email). */
  email: string | null;
  /** Whether the confirmation link went to that email (false when a limit held it back). */
  confirmationSent: boolean;
}

/**
 * The passenger takes charge, finally (ownership-store.ts takeCharge): every manage token handed
 * out before is revoked and every confirmation link sent before dies; the email on the booking
 * becomes hers, or none (never the one before); the notes go; the request that made the booking no
 * longer names its caller, so no retry of it, however made, gets a token again; and she gets a
 * token of her own. An email she gives is not marked verified (she has shown she holds the phone,
 * not the mailbox): it is sent the booking's confirmation link, whose opening verifies it. 410 for
 * a link spent, expired or unknown; 400 for an email that cannot be used, 403 for a blocked one.
 */
export async function claimBooking(
  s: Pick<Services, 'sql' | 'config' | 'notifier'>,
  token: string,
  contact: { name?: string | undefined; email?: string | undefined },
  ctx: { address: string; log?: (message: string, err: unknown) => void },
): Promise<Claimed> {
  const booking = await openClaim(s, token);
  let email: string | null = null;
  if (contact.email?.trim()) {
    const checked = checkPassengerEmail(contact.email);
    if (!checked.ok)
      throw Refusal.invalid(checked.code, checked.reason, { field: { name: 'email', message: checked.reason } });
    email = checked.email;
    await refuseBlockedPassenger(s.sql, { email });
  }
  if (!booking || !(await tokens.spendClaim(s.sql, hashSecret(token)))) {
    throw Refusal.gone(
      'claim_link_spent',
      'This link has been used or has expired. Ask for a new one from the booking page.',
    );
  }
  const manageToken = newSecret(MANAGE_TOKEN_PREFIX);
  const taken = await tokens.takeCharge(s.sql, {
    ref: booking.ref,
    phone: booking.passenger_phone,
    name: contact.name?.trim() || null,
    email,
    mailbox: email ? mailboxKey(email) : null,
    principal: CLAIMED_PRINCIPAL,
    tokenHash: hashSecret(manageToken),
  });
  if (!taken)
    throw Refusal.gone(
      'claim_link_spent',
      'This link has been used or has expired. Ask for a new one from the booking page.',
    );
  // Her messages are no stranger's now: not counted against his key or address, and decided afresh.
  await bookingClaimed(s.sql, booking.ref, CLAIMED_PRINCIPAL);
  const confirmationSent = email ? await sendClaimConfirmation(s, booking.ref, email, ctx) : false;
  return { ref: booking.ref, manageToken, email, confirmationSent };
}

/**
 * The booking's confirmation email, with a link of the claim's new generation, to the email she
 * gave: the same allowances as an email verification code to that mailbox (a claim is no way to
 * mail any address at will). Best effort: the claim stands whatever happens here.
 */
async function sendClaimConfirmation(
  s: Pick<Services, 'sql' | 'config' | 'notifier'>,
  ref: string,
  email: string,
  ctx: { address: string; log?: (message: string, err: unknown) => void },
): Promise<boolean> {
  try {
    const mailbox = mailboxKey(email);
    await admitCode(s, {
      channel: 'email',
      audience: 'verify',
      recipient: `email:${mailbox}`,
      subject: lockSubject.verify(mailbox),
      address: ctx.address,
    });
    const row: BookingWithDriver | null = await findBooking(s.sql, ref);
    if (!row?.passenger_email) return false;
    const link = confirmUrl(s.config.PUBLIC_BASE_URL, s.config.JOB_LINK_SECRET, row, new Date());
    const { subject, body } = renderBookingConfirmationEmail(row, `${s.config.PUBLIC_BASE_URL}/track/${ref}`, link);
    await s.notifier.send({
      channel: 'email',
      to: row.passenger_email,
      subject,
      body,
      idempotencyKey: `confirmation:${ref}:claim:${row.claim_generation ?? 0}`,
      bookingRef: ref,
      purpose: 'verification_code',
    });
    return true;
  } catch (err) {
    if (!(err instanceof Refusal)) ctx.log?.('claim confirmation email not sent', err);
    return false;
  }
}
