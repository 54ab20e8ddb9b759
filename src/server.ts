// HTTP API entry point. Scales independently of the worker; every process shares Postgres (records,
// rate limits) and Temporal (process state), so any number can run behind a load balancer.
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { migrate } from './db/migrate.js';
import { preloadGazetteer } from './geo/index.js';
import { runMain } from './run-main.js';

runMain('api', async () => {
  const config = loadConfig();
  // Postgres and Temporal are the app's plugins: opened here, closed by app.close().
  const app = await buildApp({ config });
  await migrate(app.sql);
  // Load the gazetteer while the server starts listening, so neither boot nor the first quote waits.
  void Promise.resolve(preloadGazetteer()).catch((err: unknown) => app.log.error({ err }, 'gazetteer preload failed'));

  closeWithGrace({ delay: 10_000 }, async ({ err, signal }) => {
    if (err) app.log.error({ err }, 'shutting down after error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
  });

  await app.listen({ host: config.HOST, port: config.PORT });
});
