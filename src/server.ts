// HTTP API entry point. Scales independently of the worker; every process shares Postgres (records,
// rate limits) and Temporal (process state), so any number can run behind a load balancer.
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { migrate } from './db/migrate.js';
import { createSql } from './db/sql.js';
import { preloadGazetteer } from './geo/index.js';
import { nearestPlace } from './geo/nearest-place.js';
import { runMain } from './run-main.js';

runMain('api', async () => {
  const config = loadConfig();
  // Migrations come first, on a pool of their own: building the app reads tables (the OAuth
  // signing keys), and on a fresh database another process may still be migrating, under the lock
  // migrate() waits for. An API once died here on a cluster start when the worker migrated first.
  const migrations = createSql(config.DATABASE_URL, 2);
  try {
    await migrate(migrations);
  } finally {
    await migrations.end({ timeout: 5 });
  }
  // Postgres and Temporal are the app's plugins: opened here, closed by app.close().
  const app = await buildApp({ config });
  // Load the gazetteer while the server starts listening, so neither boot nor the first quote waits.
  // Then the places the tracking page names a driver's whereabouts by (src/geo/nearest-place.ts).
  void Promise.resolve(preloadGazetteer())
    .then(() => nearestPlace())
    .catch((err: unknown) => app.log.error({ err }, 'gazetteer preload failed'));

  closeWithGrace({ delay: 10_000 }, async ({ err, signal }) => {
    if (err) app.log.error({ err }, 'shutting down after error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
  });

  await app.listen({ host: config.HOST, port: config.PORT });
});
