import type { Sql } from '../db/sql.js';
import { ProblemError } from '../http/problem.js';
import { canonicalJson, sha256 } from './identity.js';

export interface StoredResponse {
  status: number;
  body: unknown;
}

export function readIdempotencyKey(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  const key = Array.isArray(header) ? header[0] : header;
  if (!key || key.length > 200 || !/^[\x21-\x7e]+$/.test(key)) {
    throw new ProblemError(400, 'invalid_idempotency_key', 'Idempotency-Key must be 1 to 200 visible ASCII characters.');
  }
  return key;
}

/**
 * Honours an Idempotency-Key: the same key with the same body gets the first response again; the
 * same key with a different body is a 422 (it is a client bug, not a retry). Without a key, `run`
 * is called as is. `run` must itself be idempotent (booking references derive from the request),
 * so a crash between running and storing the response costs nothing.
 */
export async function withIdempotencyKey(
  sql: Sql,
  opts: { scope: string; key: string | null; body: unknown },
  run: () => Promise<StoredResponse>,
): Promise<StoredResponse> {
  if (!opts.key) return run();
  const hash = sha256(canonicalJson(opts.body));
  await sql`insert into idempotency_keys (scope, key, request_hash) values (${opts.scope}, ${opts.key}, ${hash})
            on conflict (scope, key) do nothing`;
  const [row] = await sql<{ request_hash: string; response_status: number | null; response_body: unknown }[]>`
    select request_hash, response_status, response_body from idempotency_keys where scope = ${opts.scope} and key = ${opts.key}`;
  if (row && row.request_hash !== hash) {
    throw new ProblemError(422, 'idempotency_key_reused', 'This Idempotency-Key was used with a different request body.');
  }
  if (row?.response_status) return { status: row.response_status, body: row.response_body };
  const response = await run();
  await sql`update idempotency_keys set response_status = ${response.status}, response_body = ${sql.json(response.body as never)}
             where scope = ${opts.scope} and key = ${opts.key} and response_status is null`;
  return response;
}
