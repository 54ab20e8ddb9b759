import type { Sql } from '../db/sql.js';

// Sign-in codes and driver sessions: only hashes are stored.

export async function saveSignInCode(sql: Sql, driverId: string, codeHash: string, expiresAt: Date): Promise<void> {
  await sql`
    insert into driver_sign_in_codes (driver_id, code_hash, expires_at, attempts, created_at)
    values (${driverId}, ${codeHash}, ${expiresAt}, 0, now())
    on conflict (driver_id) do update set code_hash = excluded.code_hash, expires_at = excluded.expires_at, attempts = 0,
                                          created_at = now()`;
}

/** Counts an attempt and answers the code to check it against, unless it is spent, expired or guessed at too often. */
export async function takeSignInAttempt(sql: Sql, driverId: string, maxAttempts: number): Promise<string | null> {
  const [row] = await sql<{ code_hash: string }[]>`
    update driver_sign_in_codes set attempts = attempts + 1
     where driver_id = ${driverId} and expires_at > now() and attempts < ${maxAttempts}
     returning code_hash`;
  return row?.code_hash ?? null;
}

export async function spendSignInCode(sql: Sql, driverId: string): Promise<void> {
  await sql`delete from driver_sign_in_codes where driver_id = ${driverId}`;
}

export async function createSession(sql: Sql, tokenHash: string, driverId: string): Promise<void> {
  await sql`insert into driver_sessions (token_hash, driver_id) values (${tokenHash}, ${driverId})`;
}

/**
 * The driver a live session belongs to (an approved or suspended driver; never a rejected one). A
 * suspension revokes every session, so a suspended driver's is one that escaped it (a status set
 * by hand in the database, say); the job routes refuse it with driver_suspended (src/drivers/suspension.ts).
 */
export async function sessionDriver(
  sql: Sql,
  tokenHash: string,
): Promise<{ driverId: string; tokenHash: string } | null> {
  const [row] = await sql<{ driver_id: string; token_hash: string }[]>`
    update driver_sessions s set last_seen_at = now()
      from drivers d
     where s.token_hash = ${tokenHash} and s.revoked_at is null and d.id = s.driver_id and d.status in ('approved', 'suspended')
     returning s.driver_id, s.token_hash`;
  return row ? { driverId: row.driver_id, tokenHash: row.token_hash } : null;
}

/** Whether the driver may hold a session (approved: not suspended, rejected or still applying). */
export async function driverMaySignIn(sql: Sql, driverId: string): Promise<boolean> {
  const rows = await sql`select 1 from drivers where id = ${driverId} and status = 'approved'`;
  return rows.length > 0;
}

export async function revokeSession(sql: Sql, tokenHash: string): Promise<void> {
  await sql`update driver_sessions set revoked_at = now() where token_hash = ${tokenHash} and revoked_at is null`;
}

export async function revokeDriverSessions(sql: Sql, driverId: string): Promise<number> {
  const rows =
    await sql`update driver_sessions set revoked_at = now() where driver_id = ${driverId} and revoked_at is null returning 1`;
  return rows.length;
}
