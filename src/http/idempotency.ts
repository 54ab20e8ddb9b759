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

/** The digest of a request body by which a retry is recognised (key order does not change it). */
export function bodyDigest(body: unknown): string {
  return sha256(canonicalJson(body));
}

/** A request as its Idempotency-Key's record names it: the key's scope, and the body's digest. */
export interface IdempotentRequest {
  scope: string;
  hash: string;
}

/**
 * The scope and digest of a request, as sent. Read once, by the booking allowance before
 * validation (src/plugins/rate-limits.ts keeps it on the request), so the route's record is the one
 * the allowance looked at: validation trims strings, and a digest of the parsed body would name
 * another record (and another scope, for anonymous callers) than the one counted.
 */
export function idempotentRequest(
  group: string,
  caller: Parameters<typeof idempotencyScope>[1],
  body: unknown,
): IdempotentRequest {
  return { scope: idempotencyScope(group, caller, body), hash: bodyDigest(body) };
}

/**
 * How long an attempt under a key may run before a retry stops waiting for it and runs itself (the
 * attempt's process died). Well above the time a booking takes, well below a client's patience.
 */
const ATTEMPT_STALE_SECONDS = 30;
/** How often a request waiting for another attempt under its key looks for the reply. */
const WAIT_POLL_MS = 100;

/**
 * Whether this request is a retry under a key already known for this very request (the same scope
 * and body): its reply is stored, or an attempt is making it now (a burst of the same request at
 * once). Such a retry is answered with that reply (withIdempotencyKey waits for it) and makes
 * nothing, so it costs no allowance. The first request under a key is counted: the key is recorded
 * here, atomically, so of a burst exactly one is. A key whose last attempt failed (or died) is
 * counted again: a fresh attempt runs.
 */
export async function isKnownRetry(sql: Sql, opts: IdempotentRequest & { key: string }): Promise<boolean> {
  const hash = opts.hash;
  const inserted =
    await sql`insert into idempotency_keys (scope, key, request_hash) values (${opts.scope}, ${opts.key}, ${hash})
                              on conflict (scope, key) do nothing returning 1`;
  if (inserted.length > 0) return false;
  const rows = await sql`select 1 from idempotency_keys
                          where scope = ${opts.scope} and key = ${opts.key} and request_hash = ${hash}
                            and (response_status between 200 and 299
                                 or started_at > now() - make_interval(secs => ${ATTEMPT_STALE_SECONDS})
                                 or (started_at is null and failed_at is null and response_status is null))`;
  return rows.length > 0;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Honours an Idempotency-Key: the same key with the same body gets the first response again; the
 * same key with a different body is a 422 (it is a client bug, not a retry). Without a key, `run`
 * is called as is. Requests under one key at once run it once: the first takes the attempt, the
 * others wait for its reply (issue 37: twenty at once all get the first one's booking). Should the
 * attempt fail, or its process die (no word for ATTEMPT_STALE_SECONDS), the next request runs it
 * again. `run` must itself be idempotent (a request identity maps to one booking), so a crash
 * between running and storing the response costs nothing.
 */
export async function withIdempotencyKey(
  sql: Sql,
  opts: IdempotentRequest & { key: string | null },
  run: () => Promise<StoredResponse>,
): Promise<StoredResponse> {
  if (!opts.key) return run();
  const hash = opts.hash;
  for (;;) {
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
    // Take the attempt when none runs (or the one running went silent); else wait for its reply.
    const [taken] = await sql`
      update idempotency_keys set started_at = now(), failed_at = null
       where scope = ${opts.scope} and key = ${opts.key} and response_status is null
         and (started_at is null or started_at < now() - make_interval(secs => ${ATTEMPT_STALE_SECONDS}))
      returning 1`;
    if (!taken) {
      await sleep(WAIT_POLL_MS);
      continue;
    }
    let response: StoredResponse;
    try {
      response = await run();
    } catch (err) {
      // Nothing to keep: the attempt is over, and the next request under the key runs again.
      await sql`update idempotency_keys set started_at = null, failed_at = now()
                 where scope = ${opts.scope} and key = ${opts.key} and response_status is null`.catch(() => undefined);
      throw err;
    }
    await sql`update idempotency_keys set response_status = ${response.status}, response_body = ${sql.json(response.body as never)},
                     started_at = null
               where scope = ${opts.scope} and key = ${opts.key} and response_status is null`;
    return response;
  }
}
