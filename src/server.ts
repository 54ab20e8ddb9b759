// HTTP API entry point. Scales independently of the worker; every process shares Postgres (records,
// rate limits) and Temporal (process state), so any number can run behind a load balancer.
import closeWithGrace from 'close-with-grace';
import { activityDeps } from './activity-deps.js';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { migrate } from './db/migrate.js';
import { createSql } from './db/sql.js';
import { createGeoProviders, preloadGazetteer } from './geo/index.js';
import { runMain } from './run-main.js';
import { connectTemporal } from './temporal/connection.js';

runMain('api', async () => {
  const config = loadConfig();
  const sql = createSql(config.DATABASE_URL, config.DATABASE_POOL_MAX);
  await migrate(sql);
  const { connection, client } = await connectTemporal({
    address: config.TEMPORAL_ADDRESS,
    namespace: config.TEMPORAL_NAMESPACE,
  });
  const geo = createGeoProviders({ geocoder: config.GEOCODER, router: config.ROUTER });
  const { notifier } = activityDeps(config, sql);
  const app = await buildApp({ config, sql, temporal: client, geo, notifier });
  // Load the gazetteer while the server starts listening, so neither boot nor the first quote waits.
  void Promise.resolve(preloadGazetteer()).catch((err: unknown) => app.log.error({ err }, 'gazetteer preload failed'));

  closeWithGrace({ delay: 10_000 }, async ({ err, signal }) => {
    if (err) app.log.error({ err }, 'shutting down after error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
    await connection.close();
    await sql.end({ timeout: 5 });
  });

  await app.listen({ host: config.HOST, port: config.PORT });
});
