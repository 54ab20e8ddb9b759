import { ApplicationFailure } from '@temporalio/common';
import { loadBooking, type BookingWithDriver } from '../../src/bookings/store.js';
import type { Sql } from '../../src/db/sql.js';
import { jobCardUrl } from '../../src/dispatch/job-link.js';
import { findOffer, type ClaimedDriver } from '../../src/dispatch/store.js';
import { loadDriver } from '../../src/drivers/store.js';
import { isNonRetryable } from '../../src/notify/delivery-error.js';
import type { Notifier } from '../../src/notify/notifier.js';
import { renderJobCardText, renderJobTakenText } from '../../src/notify/templates.js';
import { sendBestEffort } from '../../src/notify/best-effort.js';

export interface JobCardDeps {
  sql: Sql;
  notifier: Notifier;
  publicBaseUrl: string;
  jobLinkSecret: string;
}

/**
 * One driver's card. `sms: false` (a group offer's cards after the first, docs/dispatch.md "Offer
 * policy"): WhatsApp and the app only, since each SMS is billed to the driver and another driver of
 * the group may well win the job before they read it. Absent: by SMS too.
 */
export interface JobCard {
  offerId: string;
  ref: string;
  driverId: string;
  sms?: boolean;
}

/** The ApplicationFailure type of a job card the provider will never deliver (a bad number). */
export const JOB_CARD_UNDELIVERABLE = 'JobCardUndeliverable';

/**
 * A driver's job card, by SMS and WhatsApp, linking to the offer. One outbox key per offer and
 * channel: a retry after a crash finds the key and sends nothing twice. A card the provider will
 * never deliver fails for good (JOB_CARD_UNDELIVERABLE), so the cascade moves on to the next driver
 * instead of retrying for ever; any other error is thrown as it is, to be retried.
 */
/**
 * What the card's caller has read already, so the card does not read it again: the booking, the fare
 * its offer was claimed at, and whether this is the booking's first round (no card of it was texted yet).
 */
export interface KnownForCard {
  booking?: Promise<BookingWithDriver>;
  /** The driver as their claim's lock read them (src/dispatch/store.ts, claimOfferReadingDriver). */
  driver?: ClaimedDriver | null;
  farePence?: number | null;
  firstRound?: boolean;
}

export async function deliverJobCard(deps: JobCardDeps, card: JobCard, known: KnownForCard = {}): Promise<void> {
  const { sql, notifier } = deps;
  const { offerId, ref, driverId } = card;
  const [b, d, farePence] = await Promise.all([
    known.booking ?? loadBooking(sql, ref),
    known.driver ?? loadDriver(sql, driverId),
    known.farePence !== undefined ? known.farePence : findOffer(sql, offerId).then((o) => o?.fare_pence ?? null),
  ]);
  // Claimed just before staff suspended them: no card (its link would only say so); the cascade moves on.
  if (d.status !== 'approved')
    throw ApplicationFailure.nonRetryable(`driver ${driverId} is ${d.status}: no job card`, JOB_CARD_UNDELIVERABLE);
  // The fare the offer was made at: the driver's own approved rate, where they have one (src/dispatch/driver-fare.ts).
  const body = renderJobCardText(b, jobCardUrl(deps.publicBaseUrl, deps.jobLinkSecret, offerId), farePence);
  try {
    // Each SMS is billed to the driver, so a booking offered to them again (a later round of an
    // unanswered booking) comes by WhatsApp and the app only: one text per booking, not one a minute.
    const textedBefore = !known.firstRound && (await textedJobCardBefore(sql, ref, d.phone, offerId));
    if (card.sms !== false && !textedBefore) {
      await notifier.send({
        channel: 'sms',
        to: d.phone,
        body,
        idempotencyKey: `jobcard:${offerId}:sms`,
        bookingRef: ref,
        purpose: 'job_card',
      });
    }
    await notifier.send({
      channel: 'whatsapp',
      to: d.whatsapp ?? d.phone,
      body,
      idempotencyKey: `jobcard:${offerId}:whatsapp`,
      bookingRef: ref,
      purpose: 'job_card',
    });
  } catch (err) {
    if (isNonRetryable(err))
      throw ApplicationFailure.nonRetryable(
        `job card to ${driverId} undeliverable: ${String(err)}`,
        JOB_CARD_UNDELIVERABLE,
      );
    throw err;
  }
}

/**
 * The winner's card (spec 1: "The winning driver receives a job card by SMS and WhatsApp"). A group
 * offer texts only its first driver, and a driver may win from WhatsApp or the app alone, so on
 * acceptance each channel this offer's card did not go by gets the card of the won job. The SMS is
 * the driver's to pay, as every text of a job they accepted is. Best effort: the job is theirs
 * whether or not it arrives; one outbox key per offer and channel, so a retry sends nothing twice.
 */
export async function deliverWonCard(
  deps: JobCardDeps,
  card: { offerId: string; ref: string; driverId: string },
  warn: (msg: string, meta: Record<string, unknown>) => void,
): Promise<void> {
  const { sql, notifier } = deps;
  const { offerId, ref, driverId } = card;
  const [b, d, offer] = await Promise.all([loadBooking(sql, ref), loadDriver(sql, driverId), findOffer(sql, offerId)]);
  const body = renderJobCardText(
    b,
    jobCardUrl(deps.publicBaseUrl, deps.jobLinkSecret, offerId),
    offer?.fare_pence ?? null,
    true,
  );
  const sent = await sentKeys(sql, [`jobcard:${offerId}:sms`, `jobcard:${offerId}:whatsapp`]);
  const channels = [
    { channel: 'sms' as const, to: d.phone },
    { channel: 'whatsapp' as const, to: d.whatsapp ?? d.phone },
  ].filter((c) => !sent.has(`jobcard:${offerId}:${c.channel}`));
  for (const c of channels) {
    await sendBestEffort(
      notifier,
      { ...c, body, idempotencyKey: `jobcard:${offerId}:won:${c.channel}`, bookingRef: ref, purpose: 'job_card' },
      warn,
    );
  }
}

/** Which of these outbox keys a message went out under. */
async function sentKeys(sql: Sql, keys: string[]): Promise<Set<string>> {
  const rows = await sql<{ idempotency_key: string }[]>`
    select idempotency_key from outbox where idempotency_key in ${sql(keys)}`;
  return new Set(rows.map((r) => r.idempotency_key));
}

/** Whether this booking's job card already went to this phone by SMS for another offer. */
async function textedJobCardBefore(sql: Sql, ref: string, phone: string, offerId: string): Promise<boolean> {
  const rows = await sql`
    select 1 from outbox
     where booking_ref = ${ref} and recipient = ${phone} and channel = 'sms' and purpose = 'job_card'
       and idempotency_key <> ${`jobcard:${offerId}:sms`}
     limit 1`;
  return rows.length > 0;
}

/**
 * A group offer's card withdrawn because another driver accepted first: told at once by WhatsApp
 * (never SMS, which the driver pays for), under one outbox key per offer; the app reads the offer's
 * status. Best effort: the job is gone whether or not the message arrives.
 */
export async function tellCardTaken(
  deps: JobCardDeps,
  card: { offerId: string; ref: string; driverId: string },
  warn: (msg: string, meta: Record<string, unknown>) => void,
): Promise<void> {
  const [b, d] = await Promise.all([loadBooking(deps.sql, card.ref), loadDriver(deps.sql, card.driverId)]);
  await sendBestEffort(
    deps.notifier,
    {
      channel: 'whatsapp',
      to: d.whatsapp ?? d.phone,
      body: renderJobTakenText(b),
      idempotencyKey: `jobcard:${card.offerId}:taken`,
      bookingRef: card.ref,
      purpose: 'job_card',
    },
    warn,
  );
}
