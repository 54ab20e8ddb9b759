import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createSql, type Sql } from '../db/sql.js';

declare module 'fastify' {
  interface FastifyInstance {
    sql: Sql;
  }
}

/**
 * The process's one postgres.js pool, as `app.sql`. Built from a URL it is ended when the app
 * closes; a pool handed in (tests, tools) stays its owner's to end.
 */
export const postgresPlugin = fp(
  async (app: FastifyInstance, opts: { url: string; max: number } | { sql: Sql }) => {
    if ('sql' in opts) {
      app.decorate('sql', opts.sql);
      return;
    }
    const sql = createSql(opts.url, opts.max);
    app.decorate('sql', sql);
    app.addHook('onClose', async () => {
      await sql.end({ timeout: 5 });
    });
  },
  { name: 'postgres' },
);
