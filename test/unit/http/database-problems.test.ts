import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../../dev/free-port.js';
import { toProblemError } from '../../../src/plugins/error-handler.js';

describe('a database that is not there', () => {
  it('is a 503 to retry with Retry-After, not a 500, when postgres.js cannot connect', async () => {
    // Nothing listens on a fresh free port: the same refusal a restarting Postgres gives.
    const sql = postgres(`postgres://postgres:postgres@127.0.0.1:${await freePort()}/taxi`, {
      max: 1,
      connect_timeout: 2,
    });
    const err = await sql`select 1`.then(
      () => null,
      (e: unknown) => e,
    );
    await sql.end({ timeout: 0 });
    const problem = toProblemError(err as never);
    expect(problem.status).toBe(503);
    expect(problem.code).toBe('temporarily_unavailable');
    expect(problem.extra.headers?.['retry-after']).toBe('5');
  });

  it('is a 503 for a server shutting down (57P01), and a 500 still for a bug such as a broken constraint', () => {
    expect(
      toProblemError(
        Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }) as never,
      ).status,
    ).toBe(503);
    expect(toProblemError(Object.assign(new Error('duplicate key value'), { code: '23505' }) as never).status).toBe(
      500,
    );
    expect(toProblemError(new Error('undefined is not a function') as never).status).toBe(500);
  });
});
