import { Client, Connection } from '@temporalio/client';

/**
 * Connects to Temporal, waiting for a server that is still starting (the dev server opens its
 * port before the namespace answers). One connection per process, shared by every request.
 */
export async function connectTemporal(opts: {
  address: string;
  namespace: string;
  timeoutMs?: number;
}): Promise<{ connection: Connection; client: Client }> {
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  let lastError: unknown;
  while (Date.now() < deadline) {
    let connection: Connection | undefined;
    try {
      connection = await Connection.connect({ address: opts.address, connectTimeout: '5s' });
      await connection.workflowService.describeNamespace({ namespace: opts.namespace });
      return { connection, client: new Client({ connection, namespace: opts.namespace }) };
    } catch (err) {
      lastError = err;
      await connection?.close().catch(() => {});
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  throw new Error(`Temporal at ${opts.address} (namespace ${opts.namespace}) did not answer: ${String(lastError)}`);
}
