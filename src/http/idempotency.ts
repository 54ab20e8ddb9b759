import { createHash, randomUUID } from 'node:crypto';
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

/** A request as its Idempotency-Key's record names it: the key, its scope, and the body's digest. */
export interface IdempotentRequest {
  scope: string;
  key: string;
  hash: string;
  /**
   * The attempt under the key this request holds (it was counted for it), null while it waits for
   * another's answer, undefined until it is admitted (admitUnderKey): kept here so the reply can
   * record the attempt's failure (recordFailedAttempt).
   */
  attempt?: string | null;
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
  key: string,
): IdempotentRequest {
  return { scope: idempotencyScope(group, caller, body), key, hash: bodyDigest(body) };
}

/**
 * How long an attempt under a key may run before a retry stops waiting for it and runs itself (the
 * attempt's process died). Well above the time a booking takes, well below a client's patience.
 */
const ATTEMPT_STALE_SECONDS = 30;
/** How often a request waiting for another attempt under its key looks for the answer. */
const WAIT_POLL_MS = 100;

/**
 * Admits a request under its key: either it takes the key's attempt (the first request under the
 * key, or the first after an attempt failed or went silent), and is counted by the allowance, or it
 * is a retry of a reply already stored or of an attempt running now (a burst of one request at
 * once), which will be answered with that attempt's answer (withIdempotencyKey waits for it), makes
 * nothing, and so costs no allowance. Atomic in the key's row: of a burst exactly one is counted.
 * A key reused with another body is counted (the route answers 422).
 */
export async function admitUnderKey(
  sql: Sql,
  r: IdempotentRequest,
): Promise<{ counted: boolean; attempt: string | null }> {
  const attempt = randomUUID();
  const inserted = await sql`
    insert into idempotency_keys (scope, key, request_hash, started_at, attempt)
    values (${r.scope}, ${r.key}, ${r.hash}, now(), ${attempt})
    on conflict (scope, key) do nothing returning 1`;
  if (inserted.length > 0) return { counted: true, attempt };
  const [row] = await sql<{ same: boolean; done: boolean; running: boolean }[]>`
    select request_hash = ${r.hash} as same, response_status is not null as done,
           coalesce(started_at > now() - make_interval(secs => ${ATTEMPT_STALE_SECONDS}), false) as running
      from idempotency_keys where scope = ${r.scope} and key = ${r.key}`;
  if (!row?.same) return { counted: true, attempt: null };
  if (row.done || row.running) return { counted: false, attempt: null };
  const [taken] = await sql`
    update idempotency_keys set started_at = now(), attempt = ${attempt}, failed_at = null, failed_status = null, failed_body = null
     where scope = ${r.scope} and key = ${r.key} and response_status is null
       and (started_at is null or started_at < now() - make_interval(secs => ${ATTEMPT_STALE_SECONDS}))
    returning 1`;
  return taken ? { counted: true, attempt } : { counted: false, attempt: null };
}

/**
 * The answer of an attempt that ended without a reply to keep (a refusal, the allowance's own 429,
 * an invalid body, the database away), kept for the requests that were waiting for it; the next
 * request under the key takes a new attempt. Nothing when this request held no attempt.
 */
export async function recordFailedAttempt(
  sql: Sql,
  r: IdempotentRequest,
  answer: { status: number; body: unknown },
): Promise<void> {
  if (!r.attempt) return;
  await sql`update idempotency_keys set started_at = null, failed_at = now(), failed_status = ${answer.status},
                   failed_body = ${sql.json((answer.body ?? null) as never)}
             where scope = ${r.scope} and key = ${r.key} and attempt = ${r.attempt} and response_status is null`;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface KeyRow {
  request_hash: string;
  response_status: number | null;
  response_body: unknown;
  attempt: string | null;
  running: boolean;
  failed_status: number | null;
  failed_body: unknown;
}

/**
 * Honours an Idempotency-Key: the same key with the same body gets the first response again; the
 * same key with a different body is a 422 (it is a client bug, not a retry). Without a key, `run`
 * is called as is. Requests under one key at once run it once: the one holding the key's attempt
 * runs it, the others wait for its answer (issue 37: twenty at once all get the first one's
 * booking, or its refusal). An attempt silent for ATTEMPT_STALE_SECONDS (its process died) is
 * taken over by a waiting request. `run` must itself be idempotent (a request identity maps to one
 * booking), so a crash between running and storing the response costs nothing. The attempt this
 * request holds is kept in `r.attempt`, for recordFailedAttempt should the reply be a refusal.
 */
export async function withIdempotencyKey(
  sql: Sql,
  r: IdempotentRequest | null,
  run: () => Promise<StoredResponse>,
): Promise<StoredResponse> {
  if (!r) return run();
  // Admitted by the booking allowance already, unless the caller is exempt from it.
  if (r.attempt === undefined) r.attempt = (await admitUnderKey(sql, r)).attempt;
  for (;;) {
    const [row] = await sql<KeyRow[]>`
      select request_hash, response_status, response_body, attempt, failed_status, failed_body,
             coalesce(started_at > now() - make_interval(secs => ${ATTEMPT_STALE_SECONDS}), false) as running
        from idempotency_keys where scope = ${r.scope} and key = ${r.key}`;
    if (!row) {
      // Gone (purged) under us: admitted again, as a first request.
      r.attempt = (await admitUnderKey(sql, r)).attempt;
      continue;
    }
    if (row.request_hash !== r.hash) {
      throw new ProblemError(
        422,
        'idempotency_key_reused',
        'This Idempotency-Key was used with a different request body.',
      );
    }
    if (row.response_status) return { status: row.response_status, body: row.response_body };
    if (r.attempt && row.attempt === r.attempt && row.running) break;
    // The attempt this request waited for ended in a refusal: that is its answer too.
    if (row.failed_status !== null && !row.running) return { status: row.failed_status, body: row.failed_body };
    if (!row.running) {
      // Silent (its process died), or never started: this request takes it over.
      const attempt = randomUUID();
      const [taken] = await sql`
        update idempotency_keys set started_at = now(), attempt = ${attempt}
         where scope = ${r.scope} and key = ${r.key} and response_status is null and failed_status is null
           and (started_at is null or started_at < now() - make_interval(secs => ${ATTEMPT_STALE_SECONDS}))
        returning 1`;
      if (taken) {
        r.attempt = attempt;
        break;
      }
    }
    await sleep(WAIT_POLL_MS);
  }
  const response = await run();
  await sql`update idempotency_keys set response_status = ${response.status}, response_body = ${sql.json(response.body as never)},
                   started_at = null
             where scope = ${r.scope} and key = ${r.key} and response_status is null`;
  return response;
}
