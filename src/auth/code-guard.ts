import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { hitCounter } from '../http/pg-rate-limit-store.js';
import { renderOpsCodeCeilingEmail } from '../notify/templates.js';
import { Refusal } from '../refusal.js';
import type { Services } from '../services.js';
import * as lockouts from './code-guard-store.js';

// Every one-time code the service sends (passenger and driver sign-in, email verification) passes
// here first. A code is a message we pay for, sent to whatever number or address a stranger types,
// so it is the classic SMS-pumping target (premium-rate and foreign ranges, thousands of numbers
// from one address). The rules, in the order they are checked:
//   1. only numbers the service serves: mobiles of the configured countries (UK by default);
//   2. an identifier locked by wrong guesses gets no new code until the lock ends;
//   3. per address (IP, IPv6 by /64), per sign-in interaction, per recipient (hour and day);
//   4. a global daily ceiling per channel, with an ops email when it nears and a metric.
// And every wrong guess counts against the identifier, across codes, locking it for longer each
// time, so a new code never brings new tries. docs/security/threat-model.md says why each number.

export type { CodeChannel } from './code-guard-store.js';
import type { CodeChannel } from './code-guard-store.js';

/** Mobile ranges only: premium-rate, personal (070), shared-cost, VoIP and pager numbers can cost the sender. */
const SERVED_TYPES = new Set(['MOBILE', 'FIXED_LINE_OR_MOBILE']);

export type ServedCheck = { ok: true } | { ok: false; reason: string };

/** May a code be texted to this E.164 number? Only mobiles of the countries we serve. */
export function servedMobile(e164: string, countries: readonly string[]): ServedCheck {
  const phone = parsePhoneNumberFromString(e164);
  const country = phone?.country;
  if (!phone || !phone.isValid() || !country || !countries.includes(country)) {
    return { ok: false, reason: `we can only text codes to mobile numbers in ${describeCountries(countries)}` };
  }
  if (!SERVED_TYPES.has(phone.getType() ?? '')) {
    return { ok: false, reason: 'we can only text codes to a mobile number (not a landline, premium-rate or personal number)' };
  }
  return { ok: true };
}

function describeCountries(countries: readonly string[]): string {
  const uk = ['GB', 'GG', 'IM', 'JE'];
  const rest = countries.filter((c) => !uk.includes(c));
  const names = countries.some((c) => uk.includes(c)) ? ['the UK', ...rest] : rest;
  return names.join(', ') || 'no country (SIGN_IN_CODE_COUNTRIES is empty)';
}

/**
 * The address a limit counts: the IP, or for IPv6 its /64, which one subscriber usually holds
 * whole (counting single IPv6 addresses would give an attacker 2^64 allowances).
 */
export function addressKey(ip: string): string {
  const v4 = /^(?:::ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (v4) return v4[1]!;
  if (!ip.includes(':')) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

export interface CodeRequest {
  channel: CodeChannel;
  /** Who the code is for: 'passenger', 'driver', 'verify' (email verification) or 'claim' (a booking's claim link). */
  audience: 'passenger' | 'driver' | 'verify' | 'claim';
  /** The number or mailbox the code goes to, normalised for counting. */
  recipient: string;
  /** The identifier wrong guesses lock (see lockSubject). */
  subject: string;
  /** The caller's IP. */
  address: string;
  /** The sign-in interaction (OAuth), when there is one. */
  interaction?: string;
  /**
   * A recipient who has completed a sign-in before. From one address, codes to such numbers come
   * out of a larger allowance than codes to numbers never seen, so a hotel or an office of returning
   * passengers is not locked out by the limit that stops a pumping run through fresh numbers.
   */
  returning?: boolean;
  /** false: counted like any request, but nothing will be sent (a phone that is no driver's). */
  sends?: boolean;
}

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

function tooMany(message: string, ttlMs: number, code = 'too_many_codes'): Refusal {
  return Refusal.tooMany(code, message, { retryAfterSeconds: Math.max(1, Math.ceil(ttlMs / 1000)) });
}

const inMinutes = (ms: number) => `${Math.max(1, Math.ceil(ms / 60_000))} minutes`;

/**
 * Admits one code to be sent, or refuses: too_many when a limit is reached or the identifier is
 * locked, unavailable (codes_paused) when the day's ceiling for the channel is spent. Counts the
 * request against each allowance it passes; only a code that will be sent counts against the ceiling.
 */
export async function admitCode(s: Pick<Services, 'sql' | 'config' | 'notifier'>, r: CodeRequest): Promise<void> {
  const c = s.config;
  const locked = await lockouts.lockedFor(s.sql, r.subject);
  if (locked > 0) throw tooMany(`Too many wrong codes: sign-in is locked for ${inMinutes(locked)}.`, locked, 'sign_in_locked');

  const address = addressKey(r.address);
  const perAddress = r.returning ? c.SIGN_IN_CODES_PER_ADDRESS_RETURNING_PER_HOUR : c.SIGN_IN_CODES_PER_ADDRESS_PER_HOUR;
  const bucket = `${r.audience}:${r.returning ? 'returning' : 'new'}`;
  const byAddress = await hitCounter(s.sql, `codes:address:${bucket}:${address}`, HOUR_MS);
  if (byAddress.current > perAddress) {
    throw tooMany(`Too many codes asked for from this network; try again in ${inMinutes(byAddress.ttl)}.`, byAddress.ttl);
  }
  if (r.interaction) {
    const byInteraction = await hitCounter(s.sql, `codes:interaction:${r.interaction}`, HOUR_MS);
    if (byInteraction.current > c.SIGN_IN_CODES_PER_INTERACTION) {
      throw tooMany('Too many codes for this sign-in; start again from your assistant.', byInteraction.ttl);
    }
  }
  const hour = await hitCounter(s.sql, `codes:recipient:${r.recipient}`, HOUR_MS);
  if (hour.current > c.SIGN_IN_CODES_PER_HOUR) {
    throw tooMany(`Too many codes sent to this ${r.channel === 'sms' ? 'phone' : 'address'}; try again in ${inMinutes(hour.ttl)}.`, hour.ttl);
  }
  const day = await hitCounter(s.sql, `codes:recipient-day:${r.recipient}`, DAY_MS);
  if (day.current > c.SIGN_IN_CODES_PER_DAY) {
    throw tooMany(`Too many codes sent to this ${r.channel === 'sms' ? 'phone' : 'address'} today; try again tomorrow.`, day.ttl);
  }
  if (r.sends !== false) await spendFromCeiling(s, r.channel);
}

/** The day's ceiling for a channel; ops hear once a day when it nears (CODE_CEILING_ALERT_RATIO). */
async function spendFromCeiling(s: Pick<Services, 'sql' | 'config' | 'notifier'>, channel: CodeChannel): Promise<void> {
  const ceiling = dailyCeiling(s.config, channel);
  const { current, ttl } = await hitCounter(s.sql, ceilingKey(channel), DAY_MS);
  if (current > ceiling) {
    throw Refusal.unavailable('codes_paused', 'We cannot send codes right now. Please try again later.', { retryAfterSeconds: Math.ceil(ttl / 1000) });
  }
  // Every code past the mark asks; the outbox key lets one email a day through.
  if (current >= Math.ceil(ceiling * CODE_CEILING_ALERT_RATIO)) {
    const day = new Date().toISOString().slice(0, 10);
    const { subject, body } = renderOpsCodeCeilingEmail({ channel, sent: current, ceiling, alertRatio: CODE_CEILING_ALERT_RATIO });
    // Best effort: the alert must never stop the passenger's own code.
    await s.notifier
      .send({
        channel: 'email',
        to: s.config.OPS_ALERT_EMAIL,
        subject,
        body,
        idempotencyKey: `ops-code-ceiling:${channel}:${day}`,
        purpose: 'ops_alert',
      })
      .catch(() => undefined);
  }
}

export const CODE_CEILING_ALERT_RATIO = 0.8;
export const ceilingKey = (channel: CodeChannel) => `codes:ceiling:${channel}`;
export const dailyCeiling = (config: Services['config'], channel: CodeChannel) =>
  channel === 'sms' ? config.SIGN_IN_SMS_PER_DAY : config.SIGN_IN_EMAILS_PER_DAY;

/**
 * Before a code is checked: too_many (sign_in_locked) while the identifier is locked (even a right
 * code waits, or the lock would be no use), and when the address has guessed wrong too often.
 */
export async function admitGuess(s: Pick<Services, 'sql' | 'config'>, subject: string, address: string): Promise<void> {
  const locked = await lockouts.lockedFor(s.sql, subject);
  if (locked > 0) throw tooMany(`Too many wrong codes: sign-in is locked for ${inMinutes(locked)}.`, locked, 'sign_in_locked');
  const misses = await lockouts.addressFailures(s.sql, addressKey(address));
  if (misses >= s.config.SIGN_IN_FAILURES_PER_ADDRESS_PER_HOUR) {
    throw tooMany('Too many wrong codes from this network; try again later.', HOUR_MS, 'sign_in_locked');
  }
}

/** A wrong code: counted against the identifier (locking it at the limit) and the address. */
export async function recordWrongGuess(s: Pick<Services, 'sql' | 'config'>, subject: string, address: string): Promise<{ lockedForMs: number }> {
  await lockouts.countAddressFailure(s.sql, addressKey(address));
  return lockouts.recordFailure(s.sql, subject, addressKey(address), {
    failuresPerLock: s.config.SIGN_IN_FAILURES_PER_LOCK,
    firstLockMs: s.config.SIGN_IN_LOCK_MINUTES * 60_000,
    maxLockMs: DAY_MS,
  });
}

/**
 * A wrong code, answered: too_many (sign_in_locked) when it was the one that locked the identifier,
 * otherwise the caller's own refusal (the same for a wrong, spent or expired code).
 */
export async function refuseWrongCode(s: Pick<Services, 'sql' | 'config'>, subject: string, address: string, refusal: Refusal): Promise<never> {
  const { lockedForMs } = await recordWrongGuess(s, subject, address);
  if (lockedForMs > 0) throw tooMany(`Too many wrong codes: sign-in is locked for ${inMinutes(lockedForMs)}.`, lockedForMs, 'sign_in_locked');
  throw refusal;
}

/** A right code: the identifier starts afresh. */
export async function recordRightGuess(s: Pick<Services, 'sql'>, subject: string): Promise<void> {
  await lockouts.clearFailures(s.sql, subject);
}

/** The identifier a code's wrong guesses lock. */
export const lockSubject = {
  passenger: (kind: 'phone' | 'email', value: string) => `passenger:${kind}:${value}`,
  driver: (phone: string) => `driver:${phone}`,
  verify: (mailbox: string) => `verify:email:${mailbox}`,
};
