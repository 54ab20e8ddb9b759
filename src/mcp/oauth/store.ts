import { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { Sql } from '../../db/sql.js';

// oidc-provider's storage (its Adapter interface) on Postgres: one row per model instance in
// oauth_records (migration 00012). Because every API process reads and writes the same rows, a
// sign-in started on one replica can finish on another, and a refresh token used on one is spent
// for all. Expired rows are never returned; `purgeExpired` deletes them.

/** An Adapter class for oidc-provider's `adapter` option, bound to one pool. */
export function postgresAdapter(sql: Sql): new (model: string) => Adapter {
  return class PostgresAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      // jsonb cannot hold NUL; whatever let one through, the request is refused, not failed.
      if (JSON.stringify(payload).includes('\\u0000'))
        throw new errors.InvalidRequest('control characters are not allowed');
      const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
      await sql`
        insert into oauth_records (model, id, payload, grant_id, user_code, uid, expires_at)
        values (${this.model}, ${id}, ${sql.json(payload as never)}, ${payload.grantId ?? null}, ${payload.userCode ?? null},
                ${payload.uid ?? null}, ${expiresAt})
        on conflict (model, id) do update
          set payload = excluded.payload, grant_id = excluded.grant_id, user_code = excluded.user_code,
              uid = excluded.uid, expires_at = excluded.expires_at`;
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      return this.one(
        await sql<Row[]>`
        select payload, consumed_at from oauth_records
         where model = ${this.model} and id = ${id} and (expires_at is null or expires_at > now())`,
      );
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return this.one(
        await sql<Row[]>`
        select payload, consumed_at from oauth_records
         where model = ${this.model} and uid = ${uid} and (expires_at is null or expires_at > now())`,
      );
    }

    async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return this.one(
        await sql<Row[]>`
        select payload, consumed_at from oauth_records
         where model = ${this.model} and user_code = ${userCode} and (expires_at is null or expires_at > now())`,
      );
    }

    async consume(id: string): Promise<void> {
      await sql`update oauth_records set consumed_at = now() where model = ${this.model} and id = ${id}`;
    }

    async destroy(id: string): Promise<void> {
      await sql`delete from oauth_records where model = ${this.model} and id = ${id}`;
    }

    /** Every token and code of a grant goes with it (a reused code or refresh token revokes them all). */
    async revokeByGrantId(grantId: string): Promise<void> {
      await sql`delete from oauth_records where grant_id = ${grantId}`;
    }

    private one(rows: Row[]): AdapterPayload | undefined {
      const row = rows[0];
      if (!row) return undefined;
      // oidc-provider tells a spent code or rotated refresh token by `consumed` (and then revokes the grant).
      return row.consumed_at ? { ...row.payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : row.payload;
    }
  };
}

interface Row {
  payload: AdapterPayload;
  consumed_at: Date | null;
}

/**
 * Is the grant an access token names still in force, for that passenger and that client? Revoking
 * a grant (the revocation endpoint, a reused refresh token) deletes its row, so this is the check
 * that stops the grant's access tokens before they expire.
 */
export async function grantInForce(
  sql: Sql,
  g: { grantId: string; accountId: string; clientId: string },
): Promise<boolean> {
  const rows = await sql`
    select 1 from oauth_records
     where model = 'Grant' and id = ${g.grantId} and (expires_at is null or expires_at > now())
       and payload->>'accountId' = ${g.accountId} and payload->>'clientId' = ${g.clientId}`;
  return rows.length > 0;
}

/** Deletes what has expired; returns how many rows went. */
export async function purgeExpiredOAuthRecords(sql: Sql): Promise<number> {
  const rows = await sql`delete from oauth_records where expires_at < now() - interval '1 hour' returning 1`;
  return rows.length;
}
