import { createHash } from 'node:crypto';
import type { Sql } from '../db/sql.js';
import { ProblemError } from './problem.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Stable JSON: key order does not change the hash of the same body. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export interface StoredResponse {
  status: number;
  body: unknown;
}

export function readIdempotencyKey(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  const key = Array.isArray(header) ? header[0] : header;
  if (!key || key.length > 200 || !/^[\x21-\x7e]+$/.test(key)) {
    throw new ProblemError(
      400,
      'invalid_idempotency_key',
      'Idempotency-Key must be 1 to 200 visible ASCII characters.',
    );
  }
  return key;
}

/**
 * The key's scope: an API key's own, or for anonymous callers the request body itself. Anonymous
 * callers cannot be told apart, so two of them choosing the same key must not share a reply: for
 * them a key replays only an identical request (a different body under the same key is simply a
 * different request, never another caller's booking).
 */
export function idempotencyScope(
  group: string,
  caller: { kind: 'key'; key: { id: string } } | { kind: 'anonymous' },
  body: unknown,
): string {
  return caller.kind === 'key' ? `${group}:key:${caller.key.id}` : `${group}:anonymous:${sha256(canonicalJson(body))}`;
}

/**
 * Whether this key, in this scope, already holds a stored successful reply to this very request
 * (the same body): a retry that withIdempotencyKey will answer from it without making anything.
 */
export async function hasStoredReply(sql: Sql, opts: { scope: string; key: string; body: unknown }): Promise<boolean> {
  const hash = sha256(canonicalJson(opts.body));
  const rows = await sql`select 1 from idempotency_keys
                          where scope = ${opts.scope} and key = ${opts.key} and request_hash = ${hash}
                            and response_status between 200 and 299`;
  return rows.length > 0;
}

/**
 * Honours an Idempotency-Key: the same key with the same body gets the first response again; the
 * same key with a different body is a 422 (it is a client bug, not a retry). Without a key, `run`
 * is called as is. `run` must itself be idempotent (a request identity maps to one booking),
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
    throw new ProblemError(
      422,
      'idempotency_key_reused',
      'This Idempotency-Key was used with a different request body.',
    );
  }
  if (row?.response_status) return { status: row.response_status, body: row.response_body };
  const response = await run();
  await sql`update idempotency_keys set response_status = ${response.status}, response_body = ${sql.json(response.body as never)}
             where scope = ${opts.scope} and key = ${opts.key} and response_status is null`;
  return response;
}
