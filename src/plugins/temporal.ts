import type { Client } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { connectTemporal } from '../temporal/connection.js';

declare module 'fastify' {
  interface FastifyInstance {
    temporal: Client;
  }
}

/**
 * The process's one Temporal client, as `app.temporal` (one connection shared by every request,
 * never one per request). Connected here it is closed when the app closes; a client handed in
 * stays its owner's.
 */
export const temporalPlugin = fp(
  async (app: FastifyInstance, opts: { address: string; namespace: string } | { client: Client }) => {
    if ('client' in opts) {
      app.decorate('temporal', opts.client);
      return;
    }
    const { connection, client } = await connectTemporal(opts);
    app.decorate('temporal', client);
    app.addHook('onClose', async () => {
      await connection.close();
    });
  },
  { name: 'temporal' },
);
