// Registers an exchange fleet (Cab Exchange, docs/exchange.md): a fleet running this same API, to
// which bookings nobody of ours takes are handed, and which may hand us its own. The fleet and our
// partner record of it (the jobs it sends us, never handed on: one hop) are registered together:
// the partner record has the fleet's id and is made here if it does not exist yet, printing the
// signing secret the fleet registers us with. Each side runs this for the other:
//   npm run exchange:register -- --id fleet-b --name "Fleet B" --base-url https://fleet-b.example
//       first: our partner record of the fleet and the fleet, offered nothing yet; prints what the
//       fleet needs (--partner-id fleet-b --secret <...>) to run this on its side for us
//   npm run exchange:register -- --id fleet-b --name "Fleet B" --base-url https://fleet-b.example \
//     --partner-id <its id for us> --secret <the signing secret it printed for us> \
//     [--hook-url https://us.example/api/public/hooks/booking-status] [--not-approved]
//       with what the fleet printed when it registered us: the fleet is offered jobs
// --partner <id> names our partner record of the fleet if it already has one under another id (it
// must exist). Our hook URL (default: PUBLIC_BASE_URL + /api/public/hooks/booking-status) is
// registered at the fleet as our callback; the whsec_ secret it answers is stored sealed, like the
// signing secret.
import { scriptArgs } from './script-args.js';
import { loadConfig } from '../src/config.js';
import { migrate } from '../src/db/migrate.js';
import { stackDatabaseOrExit } from '../dev/stack-settings.js';
import { connectExchangeFleet, EXCHANGE_HOOK_PATH, saveExchangeRegistration } from '../src/exchange/register.js';
import { EXCHANGE_FLEET_ID_PATTERN } from '../src/exchange/store.js';

const values = scriptArgs(
  {
    id: { type: 'string' },
    name: { type: 'string' },
    'base-url': { type: 'string' },
    'partner-id': { type: 'string' },
    secret: { type: 'string' },
    'hook-url': { type: 'string' },
    partner: { type: 'string' },
    'not-approved': { type: 'boolean', default: false },
  },
  'usage: npm run exchange:register -- --id <id> --name "<name>" --base-url <its API> [--partner-id <our id there> --secret <its signing secret for us>] [--hook-url <our hook>] [--partner <our existing partner id of it>] [--not-approved]',
);
const usage = () => {
  console.error(
    'usage: npm run exchange:register -- --id <id> --name "<name>" --base-url <its API> [--partner-id <our id there> --secret <its signing secret for us>] [--hook-url <our hook>] [--partner <our existing partner id of it>] [--not-approved]',
  );
  console.error(
    'Without --partner-id and --secret: our partner record of the fleet and the fleet, offered nothing until you run it again with what the fleet gives you.',
  );
  console.error(
    'The database is the one of the stack `npm start` runs with the same DATA_DIR (docs/configuration.md), unless DATABASE_URL names another.',
  );
  process.exit(2);
};
if (!values.id || !EXCHANGE_FLEET_ID_PATTERN.test(values.id) || !values.name || !values['base-url']) usage();
// Both or neither: a partner id without its secret (or the other way round) is a registration half made.
if (Boolean(values['partner-id']) !== Boolean(values.secret)) usage();

const { sql, stack } = await stackDatabaseOrExit('exchange:register', 2);
const config = loadConfig({ ...process.env, DATABASE_URL: stack.databaseUrl });
try {
  await migrate(sql);
  const id = values.id!;
  const { fleet, partner } = await saveExchangeRegistration(sql, config.PARTNER_SECRETS_KEY, {
    id,
    name: values.name!,
    baseUrl: values['base-url']!,
    credentials: values['partner-id'] ? { ourPartnerId: values['partner-id'], signingSecret: values.secret! } : null,
    partnerId: values.partner ?? null,
    approved: !values['not-approved'],
  });
  console.log(
    `Exchange fleet ${fleet.id} "${fleet.name}" at ${fleet.baseUrl}${fleet.approved ? '' : ' (not approved: offered nothing yet)'}.`,
  );
  console.log(
    `The jobs it sends us come as our partner ${partner.id}${partner.created ? ' (made now)' : ''}: never handed on to a fleet.`,
  );
  // Printed before anything is sent to the fleet: shown once, and the fleet needs it whatever happens next.
  if (partner.signingSecret) {
    console.log('Give the fleet these, once (they cannot be shown again), to register us on its side:');
    console.log(
      `  npm run exchange:register -- --id <its id for us> --name "<our name>" --base-url ${config.PUBLIC_BASE_URL} --partner-id ${partner.id} --secret ${partner.signingSecret}`,
    );
  }
  if (!fleet.credentialsStored) {
    console.log(
      'It has not given us its credentials yet: it is offered nothing until this is run again with --partner-id and --secret, as it prints them when it registers us.',
    );
  } else {
    const hook = await connectExchangeFleet(
      sql,
      config.PARTNER_SECRETS_KEY,
      id,
      values['hook-url'] ?? `${config.PUBLIC_BASE_URL}${EXCHANGE_HOOK_PATH}`,
    );
    console.log(`Its status events come to ${hook.hookUrl}, verified with the secret it issued (stored sealed).`);
  }
} finally {
  await sql.end();
}
