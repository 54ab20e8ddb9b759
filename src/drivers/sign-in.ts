import {
  admitCode,
  admitGuess,
  lockSubject,
  recordRightGuess,
  refuseWrongCode,
  servedMobile,
} from '../auth/code-guard.js';
import { hashCode, hashSecret, newCode, newSecret, sameDigest } from '../auth/secrets.js';
import { renderDriverSignInCodeText } from '../notify/templates.js';
import { Refusal } from '../refusal.js';
import type { Services } from '../services.js';
import * as sessions from './session-store.js';

// Password-less sign-in for drivers: a one-time code by SMS (through the notifier), then a session
// token the app keeps and sends as a Bearer token. Sessions last until the driver signs out or
// staff suspend the driver, which revokes them all; a suspended driver gets neither code nor session.
// The code guard (src/auth/code-guard.ts) counts every request the same way whether or not the
// phone is a driver's, so neither the answer nor the limits tell a stranger who drives for us; the
// codes are never billed to the driver. A stranger's requests and wrong guesses spend and lock only
// their own address's share of the phone's allowance, so whoever knows a driver's phone cannot keep
// the driver from signing in; an approved driver's codes come out of the part of the day's ceiling
// that codes to new numbers cannot reach.

const CODE_TTL_MS = 10 * 60_000;
const MAX_ATTEMPTS = 5;
const SESSION_PREFIX = 'drs_';

/**
 * Sends a code if the phone belongs to a driver who may sign in; says the same either way (no
 * enumeration). 400 for a number we never text (not a mobile of a served country), 429 beyond the
 * limits: SIGN_IN_CODES_PER_HOUR codes an hour to one phone from one address, however many are
 * asked for, and SIGN_IN_CODES_PER_RECIPIENT_PER_DAY from all addresses together.
 */
export async function requestSignInCode(
  s: Pick<Services, 'sql' | 'config' | 'notifier'>,
  phone: string,
  ctx: { address: string },
): Promise<void> {
  const served = servedMobile(phone, s.config.SIGN_IN_CODE_COUNTRIES);
  if (!served.ok)
    throw Refusal.invalid('number_not_served', `Sorry: ${served.reason}.`, {
      field: { name: 'phone', message: served.reason },
    });
  const driver = await driverWithPhone(s, phone);
  // Counted for every phone; only the daily ceiling, which stands for money spent, is left alone
  // when nothing will be sent.
  await admitCode(s, {
    channel: 'sms',
    audience: 'driver',
    recipient: `phone:${phone}`,
    subject: lockSubject.driver(phone),
    address: ctx.address,
    known: driver !== null,
    sends: driver !== null,
  });
  if (!driver) return;
  const code = newCode();
  await sessions.saveSignInCode(
    s.sql,
    driver.id,
    hashCode(s.config.JOB_LINK_SECRET, driver.id, code),
    new Date(Date.now() + CODE_TTL_MS),
  );
  await s.notifier.send({
    channel: 'sms',
    to: phone,
    body: renderDriverSignInCodeText(code, CODE_TTL_MS / 60_000),
    // One message per code: a new code is a new message.
    idempotencyKey: `driver-sign-in:${driver.id}:${hashSecret(code).slice(0, 16)}:${Date.now()}`,
    purpose: 'sign_in_code',
  });
}

/** The approved driver with this phone: a suspended driver gets no code, so no text either. */
async function driverWithPhone(s: Pick<Services, 'sql'>, phone: string): Promise<{ id: string } | null> {
  const [driver] = await s.sql<{ id: string }[]>`
    select id from drivers where phone = ${phone} and status = 'approved' order by created_at limit 1`;
  return driver ?? null;
}

/**
 * A session for the right code. Wrong codes count against the phone for the address that sent them,
 * across codes (a new code brings no new tries), and lock it there for longer each time, up to
 * SIGN_IN_LOCK_MAX_MINUTES: 401 for a wrong code, 429 while locked.
 */
export async function verifySignInCode(
  s: Pick<Services, 'sql' | 'config'>,
  phone: string,
  code: string,
  ctx: { address: string },
): Promise<{ token: string; driverId: string }> {
  const refused = () =>
    Refusal.unauthenticated('invalid_code', 'That code is not valid. Ask for a new one if it has expired.');
  const subject = lockSubject.driver(phone);
  await admitGuess(s, subject, ctx.address);
  const driver = await driverWithPhone(s, phone);
  const stored = driver ? await sessions.takeSignInAttempt(s.sql, driver.id, MAX_ATTEMPTS) : null;
  if (!driver || !stored || !sameDigest(stored, hashCode(s.config.JOB_LINK_SECRET, driver.id, code))) {
    return refuseWrongCode(s, subject, ctx.address, refused());
  }
  await sessions.spendSignInCode(s.sql, driver.id);
  await recordRightGuess(s, subject, ctx.address);
  const token = newSecret(SESSION_PREFIX);
  const tokenHash = hashSecret(token);
  await sessions.createSession(s.sql, tokenHash, driver.id);
  // Suspended in the meantime? A suspension revokes sessions after writing the status, so either it
  // saw this session, or this read sees the suspension: no session outlives it.
  if (!(await sessions.driverMaySignIn(s.sql, driver.id))) {
    await sessions.revokeSession(s.sql, tokenHash);
    throw refused();
  }
  return { token, driverId: driver.id };
}

/** The signed-in driver behind a session token, or null. */
export async function driverForToken(
  s: Pick<Services, 'sql'>,
  token: string | null,
): Promise<{ driverId: string; tokenHash: string } | null> {
  if (!token?.startsWith(SESSION_PREFIX)) return null;
  return sessions.sessionDriver(s.sql, hashSecret(token));
}
