import { hashCode, hashSecret, newCode, newSecret, sameDigest } from '../auth/secrets.js';
import { ProblemError } from '../http/problem.js';
import type { Services } from '../services.js';
import * as sessions from './session-store.js';

// Password-less sign-in for drivers: a one-time code by SMS (through the notifier), then a session
// token the app keeps and sends as a Bearer token. Sessions last until the driver signs out or
// staff suspend the driver, which revokes them all; a suspended driver gets neither code nor session.

const CODE_TTL_MS = 10 * 60_000;
const MAX_ATTEMPTS = 5;
const SESSION_PREFIX = 'drs_';

/**
 * Sends a code if the phone belongs to a driver who may sign in (an approved one: a suspended driver
 * gets no code, so no text either); says the same either way (no enumeration).
 */
export async function requestSignInCode(s: Pick<Services, 'sql' | 'config' | 'notifier'>, phone: string): Promise<void> {
  const [driver] = await s.sql<{ id: string }[]>`
    select id from drivers where phone = ${phone} and status = 'approved' order by created_at limit 1`;
  if (!driver) return;
  const code = newCode();
  await sessions.saveSignInCode(s.sql, driver.id, hashCode(s.config.JOB_LINK_SECRET, driver.id, code), new Date(Date.now() + CODE_TTL_MS));
  await s.notifier.send({
    channel: 'sms',
    to: phone,
    body: `Your Direct Taxi driver sign-in code is ${code}. It expires in 10 minutes. Never share it.`,
    // One message per code: a new code is a new message.
    idempotencyKey: `driver-sign-in:${driver.id}:${hashSecret(code).slice(0, 16)}:${Date.now()}`,
  });
}

export async function verifySignInCode(
  s: Pick<Services, 'sql' | 'config'>,
  phone: string,
  code: string,
): Promise<{ token: string; driverId: string }> {
  const refused = () => new ProblemError(401, 'invalid_code', 'That code is not valid. Ask for a new one if it has expired.');
  const [driver] = await s.sql<{ id: string }[]>`
    select id from drivers where phone = ${phone} and status = 'approved' order by created_at limit 1`;
  if (!driver) throw refused();
  const stored = await sessions.takeSignInAttempt(s.sql, driver.id, MAX_ATTEMPTS);
  if (!stored || !sameDigest(stored, hashCode(s.config.JOB_LINK_SECRET, driver.id, code))) throw refused();
  await sessions.spendSignInCode(s.sql, driver.id);
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
export async function driverForToken(s: Pick<Services, 'sql'>, token: string | null): Promise<{ driverId: string; tokenHash: string } | null> {
  if (!token?.startsWith(SESSION_PREFIX)) return null;
  return sessions.sessionDriver(s.sql, hashSecret(token));
}
