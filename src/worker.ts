// Temporal worker entry point: runs every workflow and activity of the service. Can be scaled
// independently of the API (start more of these against the same TEMPORAL_ADDRESS).
import { loadConfig } from './config.js';
import { migrate } from './db/migrate.js';
import { createSql } from './db/sql.js';
import { startEventPump } from './partners/event-pump.js';
import { activityDeps } from './services.js';
import { createWorker } from './temporal/create-worker.js';
import { connectTemporal } from './temporal/connection.js';
import { runMain } from './run-main.js';
import { installWorkerLogging } from './temporal/runtime-logging.js';
import { createWorkerMetrics } from './ops/metrics.js';
import { startMetricsServer } from './ops/metrics-server.js';
import { RecordsRetentionClient } from './records/retention-client.js';
import { OpsWatchClient } from './ops/watch-client.js';
import { LocationWatchClient } from './drivers/location-watch-client.js';
import { PartnerBillingClient } from './billing/partner-billing-client.js';
import { PartnerDeliveryClient } from './partners/delivery-client.js';
import { ensureSearchAttributes } from './temporal/search-attributes.js';
import { startInboxDrain } from './partners/inbox-drain.js';
import { PartnerJobClient } from './partners/job-client.js';

runMain('worker', async () => {
  const config = loadConfig();
  const metricsPort = config.WORKER_METRICS_PORT;
  const sdkMetricsAddress =
    metricsPort === undefined ? undefined : `127.0.0.1:${config.WORKER_SDK_METRICS_PORT ?? metricsPort + 1}`;
  installWorkerLogging(config.LOG_LEVEL, sdkMetricsAddress ? { sdkMetricsAddress } : {});
  const metrics = createWorkerMetrics();
  const sql = createSql(config.DATABASE_URL, config.DATABASE_POOL_MAX);
  await migrate(sql, (m) => console.log(`[worker] ${m}`));
  // Fail fast with a clear message if the server is not there (NativeConnection does not wait).
  const probe = await connectTemporal({ address: config.TEMPORAL_ADDRESS, namespace: config.TEMPORAL_NAMESPACE });
  const registered = await ensureSearchAttributes(probe.connection, config.TEMPORAL_NAMESPACE);
  if (registered.length > 0) console.log(`[worker] registered search attributes ${registered.join(', ')}`);
  const { worker, connection } = await createWorker({
    address: config.TEMPORAL_ADDRESS,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    deps: activityDeps(config, sql, undefined, metrics),
  });
  const metricsServer =
    metricsPort === undefined
      ? null
      : await startMetricsServer({
          registry: metrics.registry,
          host: config.WORKER_METRICS_HOST,
          port: metricsPort,
          ...(sdkMetricsAddress ? { sdkMetricsAddress } : {}),
          warn: (m) => console.warn(`[worker] ${m}`),
        });
  if (metricsServer)
    console.log(`[worker] metrics on http://${config.WORKER_METRICS_HOST}:${metricsServer.port}/metrics`);
  // Partner status events: starts each booking's delivery workflow as the bookings trigger records them.
  const pump = await startEventPump({
    sql,
    deliveries: new PartnerDeliveryClient(probe.client, config.TEMPORAL_TASK_QUEUE),
    log: (m, f) => console.warn(`[worker] ${m}`, f ?? ''),
  });
  // Partner jobs taken in: from the inbox into their job workflows (src/partners/inbox-drain.ts).
  const drain = await startInboxDrain({
    sql,
    jobs: new PartnerJobClient(probe.client, config.TEMPORAL_TASK_QUEUE),
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    concurrency: config.PARTNER_INBOX_CONCURRENCY,
    leaseSeconds: config.PARTNER_INBOX_LEASE_SECONDS,
    log: (m, f) => console.warn(`[worker] ${m}`, f ?? ''),
  });
  // Alerts ops about bookings still without a driver near pickup (workflows/ops/).
  // And texts online drivers whose app has gone quiet before dispatch passes them over (workflows/drivers/).
  if (config.OPS_WATCH) {
    await new OpsWatchClient(probe.client, config.TEMPORAL_TASK_QUEUE).ensure();
    await new LocationWatchClient(probe.client, config.TEMPORAL_TASK_QUEUE).ensure();
    // And bills the partners' weeks (src/billing/, docs/billing.md).
    await new PartnerBillingClient(probe.client, config.TEMPORAL_TASK_QUEUE).ensure();
    // And erases booking records whose retention is over (src/records/, docs/records.md).
    await new RecordsRetentionClient(probe.client, config.TEMPORAL_TASK_QUEUE).ensure();
  }
  console.log(`[worker] polling task queue "${config.TEMPORAL_TASK_QUEUE}" on ${config.TEMPORAL_ADDRESS}`);
  // worker.run() resolves after SIGINT/SIGTERM (the SDK installs the handlers) once work drains.
  await worker.run();
  await drain.stop();
  await pump.stop();
  await metricsServer?.close();
  await probe.connection.close();
  await connection.close();
  await sql.end({ timeout: 5 });
});
