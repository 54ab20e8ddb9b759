// Records the histories the replay test keeps under test/histories/. Run after a deliberate,
// versioned workflow change (and keep the old files: running workflows still have old histories):
//   npx tsx test/support/record-histories.ts
// Starts its own throwaway Postgres and Temporal dev server.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { activityDeps } from '../../src/activity-deps.js';
import { loadConfig } from '../../src/config.js';
import { migrate } from '../../src/db/migrate.js';
import { createSql } from '../../src/db/sql.js';
import { startEmbeddedPostgres } from '../../src/dev/embedded-postgres.js';
import { startTemporalDevServer, temporalCliPath } from '../../src/dev/temporal-dev-server.js';
import { connectTemporal } from '../../src/temporal/connection.js';
import { createWorker } from '../../src/worker-runtime.js';
import { quoteWorkflowId, redeemQuoteUpdate } from '../../workflows/quote-definitions.js';

const outDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../histories');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'taxi-record-'));
const pg = await startEmbeddedPostgres({ dataDir: path.join(tmp, 'pg'), port: 54351, persistent: false });
const temporal = await startTemporalDevServer({ port: 7251 });
const sql = createSql(pg.url, 2);
await migrate(sql);
const { client, connection } = await connectTemporal({ address: temporal.address, namespace: 'default' });
const taskQueue = 'record-histories';
const config = loadConfig({ DATABASE_URL: pg.url, TEMPORAL_ADDRESS: temporal.address, TEMPORAL_TASK_QUEUE: taskQueue });
const { worker, connection: workerConnection } = await createWorker({
  address: temporal.address,
  namespace: 'default',
  taskQueue,
  deps: activityDeps(config, sql),
});

async function insertQuote(id: string, expiresAt: Date) {
  await sql`
    insert into quotes (id, contract, pickup_query, dropoff_query, pickup, dropoff, depart_at, vehicle_type, passengers,
                        fare_pence, distance_m, duration_s, rules, tariff, expires_at)
    values (${id}, 'v1', 'a', 'b', '{}', '{}', now(), 'saloon', 1, 1000, 1000, 100, '[]', '{}', ${expiresAt})`;
}

await worker.runUntil(async () => {
  const scenarios: Record<string, (id: string) => Promise<void>> = {
    'quote-redeemed': async (id) => {
      await insertQuote(id, new Date(Date.now() + 3600_000));
      const h = await client.workflow.start('quoteWorkflow', {
        workflowId: quoteWorkflowId(id),
        taskQueue,
        args: [{ quoteId: id, expiresAt: new Date(Date.now() + 3600_000).toISOString() }],
      });
      await h.executeUpdate(redeemQuoteUpdate, { args: [{ requestId: 'r1', bookingRef: 'BK1' }] });
      await h.result();
    },
    'quote-expired': async (id) => {
      await insertQuote(id, new Date(Date.now() + 1000));
      const h = await client.workflow.start('quoteWorkflow', {
        workflowId: quoteWorkflowId(id),
        taskQueue,
        args: [{ quoteId: id, expiresAt: new Date(Date.now() + 1000).toISOString() }],
      });
      await h.result();
    },
  };
  for (const [name, run] of Object.entries(scenarios)) {
    const id = crypto.randomUUID();
    await run(id);
    // The CLI's JSON export is the format replay tools (and `temporal workflow show`) share.
    const json = execFileSync(temporalCliPath(), ['workflow', 'show', '--address', temporal.address, '--workflow-id', quoteWorkflowId(id), '--output', 'json'], { encoding: 'utf8' });
    fs.writeFileSync(path.join(outDir, `${name}.json`), json);
    console.log(`recorded ${name}`);
  }
});
await workerConnection.close();
await connection.close();
await sql.end();
await temporal.stop();
await pg.stop();
fs.rmSync(tmp, { recursive: true, force: true });
