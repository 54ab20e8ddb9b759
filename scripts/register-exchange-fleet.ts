// Registers an exchange fleet (Cab Exchange, docs/exchange.md): a partner fleet running this same
// API, to which bookings nobody of ours takes are handed. The fleet must first register us as its
// partner (on its side: npm run partner:create -- --id <our id there> --name "<us>" --kind partner)
// and give us the id and the signing secret that printed. Then, here:
//   npm run exchange:register -- --id fleet-b --name "Fleet B" --base-url https://fleet-b.example \
//     --partner-id <our id there> --secret <the signing secret it gave us> \
//     [--hook-url https://us.example/api/public/hooks/booking-status] [--partner <its partner id here>] [--not-approved]
// --partner names our partner record of the fleet, if it sends us jobs too (default: the partner of
// the same id as the fleet, if there is one): a job that came from an exchange fleet is never handed on.
// Our hook URL (default: PUBLIC_BASE_URL + /api/public/hooks/booking-status) is registered at the
// fleet as our callback; the whsec_ secret it answers is stored sealed, like the signing secret.
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { migrate } from '../src/db/migrate.js';
import { stackDatabaseOrExit } from '../dev/stack-settings.js';
import { EXCHANGE_HOOK_PATH, registerExchangeFleet } from '../src/exchange/register.js';
import { EXCHANGE_FLEET_ID_PATTERN } from '../src/exchange/store.js';

const { values } = parseArgs({
  options: {
    id: { type: 'string' },
    name: { type: 'string' },
    'base-url': { type: 'string' },
    'partner-id': { type: 'string' },
    secret: { type: 'string' },
    'hook-url': { type: 'string' },
    partner: { type: 'string' },
    'not-approved': { type: 'boolean', default: false },
  },
});
const usage = () => {
  console.error('usage: npm run exchange:register -- --id <id> --name "<name>" --base-url <its API> --partner-id <our id there> --secret <its signing secret for us> [--hook-url <our hook>] [--partner <its partner id here>] [--not-approved]');
  console.error('The database is the one of the stack `npm start` runs with the same DATA_DIR (docs/configuration.md), unless DATABASE_URL names another.');
  process.exit(2);
};
if (!values.id || !EXCHANGE_FLEET_ID_PATTERN.test(values.id) || !values.name || !values['base-url'] || !values['partner-id'] || !values.secret) usage();

const { sql, stack } = await stackDatabaseOrExit('exchange:register', 2);
const config = loadConfig({ ...process.env, DATABASE_URL: stack.databaseUrl });
try {
  await migrate(sql);
  const fleet = await registerExchangeFleet(sql, config.PARTNER_SECRETS_KEY, {
    id: values.id!,
    name: values.name!,
    baseUrl: values['base-url']!,
    ourPartnerId: values['partner-id']!,
    signingSecret: values.secret!,
    approved: !values['not-approved'],
    partnerId: values.partner ?? null,
    hookUrl: values['hook-url'] ?? `${config.PUBLIC_BASE_URL}${EXCHANGE_HOOK_PATH}`,
  });
  console.log(`Exchange fleet ${fleet.id} "${fleet.name}" at ${fleet.baseUrl}${fleet.approved ? '' : ' (not approved: offered nothing yet)'}.`);
  console.log(`Its status events come to ${fleet.hookUrl}, verified with the secret it issued (stored sealed).`);
} finally {
  await sql.end();
}
