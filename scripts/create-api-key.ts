// Creates an API key and prints it once; only its hash is stored.
//   npm run api-key:create -- --name "Acme agent" [--partner acme] [--exempt] [--quotes-per-hour N] [--sandbox]
// --sandbox: bookings made with the key are priced and acknowledged but offered to sandbox drivers
// only (docs/partners.md, "Sandbox keys"). Not with --partner: a partner's keys are in the sandbox
// when the partner is (partner:create --sandbox), since its signed jobs carry no key.
import { scriptArgs } from './script-args.js';
import { createApiKey } from '../src/auth/api-keys.js';
import { findPartner } from '../src/partners/store.js';
import { migrate } from '../src/db/migrate.js';
import { stackDatabaseOrExit } from '../dev/stack-settings.js';

const values = scriptArgs(
  {
    name: { type: 'string' },
    partner: { type: 'string' },
    exempt: { type: 'boolean', default: false },
    'quotes-per-hour': { type: 'string' },
    sandbox: { type: 'boolean', default: false },
  },
  'usage: npm run api-key:create -- --name "<who holds it>" [--partner <partner id>] [--exempt] [--quotes-per-hour N] [--sandbox]',
);
if (values.sandbox && values.partner) {
  console.error(
    "--sandbox is for keys of no partner: a partner's keys are in the sandbox when the partner is (npm run partner:create -- ... --sandbox).",
  );
  process.exit(2);
}
if (!values.name) {
  console.error(
    'usage: npm run api-key:create -- --name "<who holds it>" [--partner <partner id>] [--exempt] [--quotes-per-hour N] [--sandbox]',
  );
  console.error(
    'The database is the one of the stack `npm start` runs with the same DATA_DIR (docs/configuration.md), unless DATABASE_URL names another.',
  );
  process.exit(2);
}
// --quotes-per-hour: this key's own quote allowance (QUOTE_RATE_LIMIT_PER_HOUR, 30, when absent).
const quotesPerHour = values['quotes-per-hour'] === undefined ? null : Number(values['quotes-per-hour']);
if (quotesPerHour !== null && !(Number.isInteger(quotesPerHour) && quotesPerHour > 0)) {
  console.error('--quotes-per-hour takes a whole number above 0.');
  process.exit(2);
}
// Two connections: migrate holds one for its lock while it runs the migrations on the other.
const { sql } = await stackDatabaseOrExit('api-key:create', 2);
try {
  await migrate(sql);
  const partner = values.partner ? await findPartner(sql, values.partner) : null;
  if (values.partner && !partner) throw new Error(`no partner ${values.partner}`);
  const { key, apiKey } = await createApiKey(sql, {
    name: values.name,
    partnerId: values.partner ?? null,
    rateLimitExempt: values.exempt,
    quotesPerHour,
    sandbox: values.sandbox,
  });
  const notes = [
    apiKey.rateLimitExempt ? 'exempt from rate limits' : null,
    quotesPerHour ? `${quotesPerHour} quotes an hour` : null,
    values.sandbox || partner?.sandbox ? 'sandbox: its bookings go to sandbox drivers only' : null,
  ].filter(Boolean);
  console.log(`Created API key ${apiKey.id} for "${apiKey.name}"${notes.length > 0 ? ` (${notes.join('; ')})` : ''}.`);
  console.log('Store it now; it cannot be shown again:');
  console.log(key);
} finally {
  await sql.end({ timeout: 5 });
}
