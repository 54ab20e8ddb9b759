// Runs the embedded Postgres as a process of its own (see dev/postgres-process.ts for why), so its
// exit hooks only ever stop the server, and `npm start` can stop it last, after the API and worker
// have drained. Prints "READY <url>" once accepting connections.
import { startEmbeddedPostgres } from './embedded-postgres.js';

const dataDir = process.env.EMBEDDED_PG_DATA_DIR;
const port = Number(process.env.EMBEDDED_PG_PORT);
if (!dataDir || !Number.isInteger(port)) {
  console.error('postgres-runner needs EMBEDDED_PG_DATA_DIR and EMBEDDED_PG_PORT');
  process.exit(2);
}
const pg = await startEmbeddedPostgres({ dataDir, port, persistent: process.env.EMBEDDED_PG_PERSISTENT !== 'false' });
process.stdout.write(`READY ${pg.url}\n`);
// Stays alive until SIGTERM; embedded-postgres' exit hook then stops the server cleanly.
setInterval(() => {}, 1 << 30);
