import { addressKey } from '../http/address.js';
import { hitCounter } from '../http/pg-rate-limit-store.js';
import { servedMobile as servedNumber, type ServedCheck } from '../notify/served-numbers.js';
// One figure for both: codes and booking texts keep the same share of their ceilings for known recipients.
import { NEW_RECIPIENT_SHARE } from '../notify/sending-policy.js';
import { renderOpsCodeCeilingEmail, renderOpsNewRecipientCodesPausedEmail } from '../notify/templates.js';
import { Refusal } from '../refusal.js';
import type { Services } from '../services.js';
import * as lockouts from './code-guard-store.js';

// Every one-time code the service sends (passenger and driver sign-in, email verification, claim
// links, a driver's new phone) passes here first. A code is a message we pay for, sent to whatever
// number or address a stranger types, so it is the classic SMS-pumping target (premium-rate and
// foreign ranges, thousands of numbers from one address); and whoever knows a phone can ask for
// its codes and guess at them, so no rule may let a stranger spend its owner's codes or lock its
// owner out, nor let one address's guesses shut out the people behind it (a hotel, a carrier NAT).
//
// Asking for a code, in the order checked ("address": the IP, IPv6 by its /64):
//   1. only numbers the service serves: mobiles of the configured countries (UK by default);
//   2. an identifier locked for this address (below) gets no new code asked for from it;
//   3. per address, codes to recipients never signed in (SIGN_IN_CODES_PER_ADDRESS_PER_HOUR), and
//      to returning passengers (_RETURNING_PER_HOUR);
//   4. per passenger sign-in (one OAuth interaction);
//   5. per recipient and address: SIGN_IN_CODES_PER_HOUR and _PER_DAY codes to one phone or
//      mailbox asked for from one address. A stranger's address spends its own share of the
//      phone's allowance, never its owner's;
//   6. per recipient across addresses: SIGN_IN_CODES_PER_RECIPIENT_PER_DAY, what many addresses
//      together may send one phone. Past it, an address the identifier completed a sign-in from in
//      the last KNOWN_ADDRESS_DAYS still gets codes (its own share, rule 5, still applies);
//   7. the day's ceiling per channel (SIGN_IN_SMS_PER_DAY, SIGN_IN_EMAILS_PER_DAY), in two tiers.
//      Codes to known recipients (an approved driver's phone, a passenger's number or mailbox that
//      completed a sign-in before) may spend all of it; every other code (new numbers and
//      mailboxes, claim links, verification codes, a driver's new phone) stops at
//      NEW_RECIPIENT_SHARE of it, so the rest is a reserve no stranger can reach: a pumping run
//      through fresh numbers pauses new sign-ups, never a driver's or a returning passenger's code.
//      Only a code that is sent is counted, and a refused request counts nothing, so refusals never
//      eat into the reserve. Ops are emailed once a day when new-recipient codes pause, and at
//      CODE_CEILING_ALERT_RATIO of the ceiling.
// A request that fails a rule is counted by the rules before it, never by the ones after.
//
// Guessing (each code also takes only a few tries of its own, counted where it is checked):
//   - wrong codes count against the identifier for the guessing address, across codes (a new code
//     brings no new tries): SIGN_IN_FAILURES_PER_LOCK of them lock it, for that address only, for
//     SIGN_IN_LOCK_MINUTES, each lock in a row twice as long up to SIGN_IN_LOCK_MAX_MINUTES (locks
//     in a row are forgotten a day after the address's last wrong code). While it is locked there,
//     that address gets no code checked and no new code; every other address, the owner's among
//     them, is not held. Only someone behind the same address can lock the owner out, for minutes;
//   - past SIGN_IN_FAILURES_PER_ADDRESS_PER_HOUR wrong codes in the hour, an address's guesses at
//     identifiers it has not itself asked a code for (since yesterday, UTC) are refused unread. A
//     guess at an identifier the address asked a code for is always checked, so a person behind a
//     busy address (a hotel, a carrier NAT) still signs in with the right code.
//   A stranger's wrong guesses still spend the tries of the live code (one per identifier, which a
//   new request replaces); the owner then asks again, from their own share (rule 5).
// Ops can clear an identifier at any time (clearSignIn, POST /api/ops/sign-in-lockouts/unlock): its
// locks from every address and every code allowance of its recipient.
// docs/security/threat-model.md says why each number.

export type { CodeChannel } from './code-guard-store.js';
import type { CodeChannel } from './code-guard-store.js';

export type { ServedCheck };

/** May a code be texted to this E.164 number? Only what the sending policy texts at all (src/notify/served-numbers.ts). */
export function servedMobile(e164: string, countries: readonly string[]): ServedCheck {
  return servedNumber(e164, countries, { what: 'codes' });
}

export interface CodeRequest {
  channel: CodeChannel;
  /** Who the code is for: 'passenger', 'driver', 'verify' (email verification) or 'claim' (a booking's claim link). */
  audience: 'passenger' | 'driver' | 'verify' | 'claim';
  /** The number or mailbox the code goes to, normalised for counting ('phone:+44...', 'email:<mailbox>'). */
  recipient: string;
  /** The identifier wrong guesses lock (see lockSubject). */
  subject: string;
  /** The caller's IP. */
  address: string;
  /** The sign-in interaction (OAuth), when there is one. */
  interaction?: string;
  /**
   * A passenger who has completed a sign-in before. From one address, codes to such numbers come
   * out of a larger allowance than codes to numbers never seen, so a hotel or an office of returning
   * passengers is not locked out by the limit that stops a pumping run through fresh numbers.
   */
  returning?: boolean;
  /**
   * A known recipient (rule 7): an approved driver's phone, or a returning passenger (the default
   * when `returning`). Its codes may spend the whole day's ceiling; any other only NEW_RECIPIENT_SHARE.
   */
  known?: boolean;
  /** false: counted like any request, but nothing will be sent (a phone that is no driver's). */
  sends?: boolean;
}

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

/** Rule 6: an address the identifier signed in from this recently is still sent codes past the recipient's day. */
export const KNOWN_ADDRESS_DAYS = 90;
/** Rule 7: codes to recipients who are not known stop at this share of the day's ceiling. */
export { NEW_RECIPIENT_SHARE };
export const CODE_CEILING_ALERT_RATIO = 0.8;

function tooMany(message: string, ttlMs: number, code = 'too_many_codes'): Refusal {
  return Refusal.tooMany(code, message, { retryAfterSeconds: Math.max(1, Math.ceil(ttlMs / 1000)) });
}

const inMinutes = (ms: number) => `${Math.max(1, Math.ceil(ms / 60_000))} minutes`;
const lockedRefusal = (ms: number) =>
  tooMany(`Too many wrong codes: sign-in is locked for ${inMinutes(ms)}.`, ms, 'sign_in_locked');
const paused = (ttlMs: number) =>
  Refusal.unavailable('codes_paused', 'We cannot send codes right now. Please try again later.', {
    retryAfterSeconds: Math.max(1, Math.ceil(ttlMs / 1000)),
  });

/** The counter of one recipient's codes: per address ('hour', 'day') or across addresses ('all'); ops clear them by recipientAllowancePrefix. */
export const recipientAllowanceKey = (recipient: string, window: 'hour' | 'day' | 'all', address?: string) =>
  `${lockouts.recipientAllowancePrefix(recipient)}${window}${address === undefined ? '' : `|${address}`}`;

/**
 * Admits one code to be sent, or refuses: too_many when a limit is reached or the identifier is
 * locked for this address, unavailable (codes_paused) when the channel's ceiling is spent for this
 * recipient's tier. Counts the request against each allowance it passes; only a code that will be
 * sent is counted against the ceiling.
 */
export async function admitCode(s: Pick<Services, 'sql' | 'config' | 'notifier'>, r: CodeRequest): Promise<void> {
  const c = s.config;
  const address = addressKey(r.address);
  const locked = await lockouts.lockedFor(s.sql, r.subject, address);
  if (locked > 0) throw lockedRefusal(locked);

  const perAddress = r.returning
    ? c.SIGN_IN_CODES_PER_ADDRESS_RETURNING_PER_HOUR
    : c.SIGN_IN_CODES_PER_ADDRESS_PER_HOUR;
  const bucket = `${r.audience}:${r.returning ? 'returning' : 'new'}`;
  const byAddress = await hitCounter(s.sql, `codes:address:${bucket}:${address}`, HOUR_MS);
  if (byAddress.current > perAddress) {
    throw tooMany(
      `Too many codes asked for from this network; try again in ${inMinutes(byAddress.ttl)}.`,
      byAddress.ttl,
    );
  }
  if (r.interaction) {
    const byInteraction = await hitCounter(s.sql, `codes:interaction:${r.interaction}`, HOUR_MS);
    if (byInteraction.current > c.SIGN_IN_CODES_PER_INTERACTION) {
      throw tooMany('Too many codes for this sign-in; start again from your assistant.', byInteraction.ttl);
    }
  }
  const what = r.channel === 'sms' ? 'phone' : 'address';
  const hour = await hitCounter(s.sql, recipientAllowanceKey(r.recipient, 'hour', address), HOUR_MS);
  if (hour.current > c.SIGN_IN_CODES_PER_HOUR) {
    throw tooMany(
      `Too many codes sent to this ${what} from this network; try again in ${inMinutes(hour.ttl)}.`,
      hour.ttl,
    );
  }
  const day = await hitCounter(s.sql, recipientAllowanceKey(r.recipient, 'day', address), DAY_MS);
  if (day.current > c.SIGN_IN_CODES_PER_DAY) {
    throw tooMany(`Too many codes sent to this ${what} from this network today; try again tomorrow.`, day.ttl);
  }
  const all = await hitCounter(s.sql, recipientAllowanceKey(r.recipient, 'all'), DAY_MS);
  if (
    all.current > c.SIGN_IN_CODES_PER_RECIPIENT_PER_DAY &&
    !(await lockouts.signedInFrom(s.sql, r.subject, address, KNOWN_ADDRESS_DAYS))
  ) {
    throw tooMany(`Too many codes sent to this ${what} today; try again tomorrow, or call us.`, all.ttl);
  }
  if (r.sends === false) await refuseWhenCeilingSpent(s, r.channel);
  else await spendFromCeiling(s, r.channel, r.known ?? r.returning ?? false);
}

/**
 * Rule 7: takes one from the day's ceiling, up to NEW_RECIPIENT_SHARE of it for a recipient who is
 * not known. Ops hear once a day when new-recipient codes pause, and once when the ceiling nears.
 */
async function spendFromCeiling(
  s: Pick<Services, 'sql' | 'config' | 'notifier'>,
  channel: CodeChannel,
  known: boolean,
): Promise<void> {
  const ceiling = dailyCeiling(s.config, channel);
  const { taken, count, ttl } = await lockouts.takeFromAllowance(
    s.sql,
    ceilingKey(channel),
    DAY_MS,
    known ? ceiling : newRecipientLimit(ceiling),
  );
  if (!taken) {
    if (!known && count < ceiling) await alertOps(s, channel, 'new_recipients_paused', count, ceiling);
    throw paused(ttl);
  }
  // Every code past the mark asks; the outbox key lets one email a day through.
  if (count >= Math.ceil(ceiling * CODE_CEILING_ALERT_RATIO))
    await alertOps(s, channel, 'near_ceiling', count, ceiling);
}

/**
 * A request that sends nothing (a phone that is no driver's) is answered as a driver's is: paused
 * once the ceiling is spent, so the answer never says whose phone it is. It takes nothing.
 */
async function refuseWhenCeilingSpent(s: Pick<Services, 'sql' | 'config'>, channel: CodeChannel): Promise<void> {
  if ((await lockouts.codesToday(s.sql, channel)) >= dailyCeiling(s.config, channel))
    throw paused(DAY_MS - (Date.now() % DAY_MS));
}

async function alertOps(
  s: Pick<Services, 'config' | 'notifier'>,
  channel: CodeChannel,
  stage: 'new_recipients_paused' | 'near_ceiling',
  sent: number,
  ceiling: number,
): Promise<void> {
  const day = new Date().toISOString().slice(0, 10);
  const { subject, body } =
    stage === 'near_ceiling'
      ? renderOpsCodeCeilingEmail({ channel, sent, ceiling, alertRatio: CODE_CEILING_ALERT_RATIO })
      : renderOpsNewRecipientCodesPausedEmail({ channel, sent, ceiling, share: NEW_RECIPIENT_SHARE });
  // Best effort: the alert must never stop anyone's own code.
  await s.notifier
    .send({
      channel: 'email',
      to: s.config.OPS_ALERT_EMAIL,
      subject,
      body,
      idempotencyKey:
        stage === 'near_ceiling' ? `ops-code-ceiling:${channel}:${day}` : `ops-code-ceiling-new:${channel}:${day}`,
      purpose: 'ops_alert',
    })
    .catch(() => undefined);
}

export const ceilingKey = (channel: CodeChannel) => `codes:ceiling:${channel}`;
export const dailyCeiling = (config: Services['config'], channel: CodeChannel) =>
  channel === 'sms' ? config.SIGN_IN_SMS_PER_DAY : config.SIGN_IN_EMAILS_PER_DAY;
/** How many of the day's codes may go to recipients who are not known. */
export const newRecipientLimit = (ceiling: number) => Math.floor(ceiling * NEW_RECIPIENT_SHARE);

/**
 * Before a code is checked: too_many (sign_in_locked) while the identifier is locked for this
 * address (even a right code from it waits, or the lock would be no use), and when the address has
 * guessed wrong too often this hour and never asked a code for this identifier. Other addresses are
 * not held.
 */
export async function admitGuess(s: Pick<Services, 'sql' | 'config'>, subject: string, address: string): Promise<void> {
  const key = addressKey(address);
  const locked = await lockouts.lockedFor(s.sql, subject, key);
  if (locked > 0) throw lockedRefusal(locked);
  const misses = await lockouts.addressFailures(s.sql, key);
  if (misses >= s.config.SIGN_IN_FAILURES_PER_ADDRESS_PER_HOUR && !(await askedFrom(s, subject, key))) {
    const ttl = HOUR_MS - (Date.now() % HOUR_MS);
    throw tooMany(`Too many wrong codes from this network; try again in ${inMinutes(ttl)}.`, ttl, 'sign_in_locked');
  }
}

/** Whether this address asked a code for the subject's recipient since yesterday (UTC): its per-address day allowance counted one. */
async function askedFrom(s: Pick<Services, 'sql'>, subject: string, address: string): Promise<boolean> {
  const recipient = recipientOfSubject(subject);
  return (
    recipient !== null && lockouts.countedSince(s.sql, recipientAllowanceKey(recipient, 'day', address), 2 * DAY_MS)
  );
}

/** A wrong code: counted against the identifier for this address (locking it there at the limit) and against the address. */
export async function recordWrongGuess(
  s: Pick<Services, 'sql' | 'config'>,
  subject: string,
  address: string,
): Promise<{ lockedForMs: number }> {
  const key = addressKey(address);
  await lockouts.countAddressFailure(s.sql, key);
  return lockouts.recordFailure(s.sql, subject, key, {
    failuresPerLock: s.config.SIGN_IN_FAILURES_PER_LOCK,
    firstLockMs: s.config.SIGN_IN_LOCK_MINUTES * 60_000,
    maxLockMs: Math.max(s.config.SIGN_IN_LOCK_MINUTES, s.config.SIGN_IN_LOCK_MAX_MINUTES) * 60_000,
  });
}

/**
 * A wrong code, answered: too_many (sign_in_locked) when it was the one that locked the identifier
 * for this address, otherwise the caller's own refusal (the same for a wrong, spent or expired code).
 */
export async function refuseWrongCode(
  s: Pick<Services, 'sql' | 'config'>,
  subject: string,
  address: string,
  refusal: Refusal,
): Promise<never> {
  const { lockedForMs } = await recordWrongGuess(s, subject, address);
  if (lockedForMs > 0) throw lockedRefusal(lockedForMs);
  throw refusal;
}

/** A right code: the identifier starts afresh for this address, which is remembered as one it signs in from (rule 6). */
export async function recordRightGuess(s: Pick<Services, 'sql'>, subject: string, address: string): Promise<void> {
  await lockouts.recordSignIn(s.sql, subject, addressKey(address));
}

/** The identifier a code's wrong guesses lock. */
export const lockSubject = {
  passenger: (kind: 'phone' | 'email', value: string) => `passenger:${kind}:${value}`,
  driver: (phone: string) => `driver:${phone}`,
  verify: (mailbox: string) => `verify:email:${mailbox}`,
  claim: (phone: string) => `claim:${phone}`,
};

/** The recipient whose code allowances belong to a subject (lockSubject's forms), or null for one of no known form. */
export function recipientOfSubject(subject: string): string | null {
  const phone = /^(?:driver|claim|passenger:phone):(\+\d{6,15})$/.exec(subject);
  if (phone) return `phone:${phone[1]}`;
  const mailbox = /^(?:passenger|verify):email:(.+)$/.exec(subject);
  return mailbox ? `email:${mailbox[1]}` : null;
}

/**
 * Ops clear an identifier for someone who called in: its locks and failure counts from every
 * address, and every code allowance of its recipient (per address and across addresses), so the
 * next code is sent at once. Whether anything was cleared, and what.
 */
export async function clearSignIn(
  s: Pick<Services, 'sql'>,
  subject: string,
): Promise<{ cleared: boolean; locks: number; allowances: number }> {
  const { locks, allowances } = await lockouts.unlock(s.sql, subject, recipientOfSubject(subject));
  return { cleared: locks + allowances > 0, locks, allowances };
}
