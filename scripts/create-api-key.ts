// Creates an API key and prints it once; only its hash is stored.
//   npm run api-key:create -- --name "Acme agent" [--partner acme] [--exempt]
import { parseArgs } from 'node:util';
import { createApiKey } from '../src/auth/api-keys.js';
import { migrate } from '../src/db/migrate.js';
import { createSql } from '../src/db/sql.js';

const { values } = parseArgs({
  options: {
    name: { type: 'string' },
    partner: { type: 'string' },
    exempt: { type: 'boolean', default: false },
  },
});
const url = process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:54329/taxi';
if (!values.name) {
  console.error('usage: npm run api-key:create -- --name "<who holds it>" [--partner <partner id>] [--exempt]');
  console.error('DATABASE_URL defaults to the embedded Postgres that `npm start` runs.');
  process.exit(2);
}
// Two connections: migrate holds one for its lock while it runs the migrations on the other.
const sql = createSql(url, 2);
try {
  await migrate(sql);
  const { key, apiKey } = await createApiKey(sql, { name: values.name, partnerId: values.partner ?? null, rateLimitExempt: values.exempt });
  console.log(`Created API key ${apiKey.id} for "${apiKey.name}"${apiKey.rateLimitExempt ? ' (exempt from rate limits)' : ''}.`);
  console.log('Store it now; it cannot be shown again:');
  console.log(key);
} finally {
  await sql.end({ timeout: 5 });
}
