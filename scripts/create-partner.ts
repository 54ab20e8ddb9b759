// Registers a partner, operator or supplier and prints its credentials once: an API key (stored
// hashed) and an HMAC signing secret (stored sealed under PARTNER_SECRETS_KEY).
//   npm run partner:create -- --id acme --name "Acme Travel" --kind partner [--daily-limit 500]
//   npm run partner:create -- --id northcabs --name "North Cabs" --kind operator --approved
//   npm run partner:create -- --id acme --rotate [--overlap-hours 24]   (a new signing secret)
//   npm run partner:create -- --id acme-test --name "Acme (test)" --not-allowed-to-book   (registered, books nothing yet)
//   npm run partner:create -- --id acme-sandbox --name "Acme (sandbox)" --sandbox   (priced and acknowledged, never a real driver)
import { scriptArgs } from './script-args.js';
import { createApiKey } from '../src/auth/api-keys.js';
import { loadConfig } from '../src/config.js';
import { migrate } from '../src/db/migrate.js';
import { stackDatabaseOrExit } from '../dev/stack-settings.js';
import {
  createPartner,
  findPartner,
  issueSigningSecret,
  PARTNER_ID_PATTERN,
  type PartnerKind,
} from '../src/partners/store.js';

const values = scriptArgs(
  {
    id: { type: 'string' },
    name: { type: 'string' },
    kind: { type: 'string', default: 'partner' },
    approved: { type: 'boolean', default: false },
    'not-allowed-to-book': { type: 'boolean', default: false },
    sandbox: { type: 'boolean', default: false },
    'daily-limit': { type: 'string' },
    rotate: { type: 'boolean', default: false },
    'overlap-hours': { type: 'string', default: '24' },
  },
  'usage: npm run partner:create -- --id <id> --name "<name>" [--kind partner|operator|supplier] [--approved] [--daily-limit N] [--not-allowed-to-book] [--sandbox]\n       npm run partner:create -- --id <id> --rotate [--overlap-hours 24]',
);
const usage = () => {
  console.error(
    'usage: npm run partner:create -- --id <id> --name "<name>" [--kind partner|operator|supplier] [--approved] [--daily-limit N] [--not-allowed-to-book] [--sandbox]',
  );
  console.error('       npm run partner:create -- --id <id> --rotate [--overlap-hours 24]');
  console.error(
    'The database is the one of the stack `npm start` runs with the same DATA_DIR (docs/configuration.md), unless DATABASE_URL names another.',
  );
  process.exit(2);
};
if (!values.id || !PARTNER_ID_PATTERN.test(values.id)) usage();
const kind = values.kind as PartnerKind;
if (!['partner', 'operator', 'supplier'].includes(kind)) usage();

const { sql, stack } = await stackDatabaseOrExit('partner:create', 2);
const config = loadConfig({ ...process.env, DATABASE_URL: stack.databaseUrl });
try {
  await migrate(sql);
  const id = values.id!;
  if (values.rotate) {
    if (!(await findPartner(sql, id))) throw new Error(`no partner ${id}`);
    const secret = await issueSigningSecret(
      sql,
      config.PARTNER_SECRETS_KEY,
      id,
      Number(values['overlap-hours']) * 3600,
    );
    console.log(`New signing secret for ${id} (the previous one works for ${values['overlap-hours']} more hours):`);
    console.log(secret);
  } else {
    if (!values.name) usage();
    const partner = await createPartner(sql, {
      id,
      name: values.name!,
      kind,
      liveIntakeApproved: values.approved,
      allowedToBook: !values['not-allowed-to-book'],
      sandbox: values.sandbox,
      ...(values['daily-limit'] ? { dailyJobLimit: Number(values['daily-limit']) } : {}),
    });
    const { key } = await createApiKey(sql, { name: `${partner.name} (${kind})`, partnerId: partner.id });
    const secret = await issueSigningSecret(sql, config.PARTNER_SECRETS_KEY, partner.id);
    console.log(
      `Created ${kind} ${partner.id} "${partner.name}"${partner.fleetId ? ` with fleet ${partner.fleetId}` : ''}${partner.allowedToBook ? '' : ', not allowed to book'}${partner.sandbox ? ', in the sandbox (its jobs go to sandbox drivers only)' : ''}.`,
    );
    console.log('Store these now; they cannot be shown again.');
    console.log(`API key (Authorization: Bearer or x-api-key): ${key}`);
    console.log(`Signing secret (x-signature HMAC, v2 encoding in src/partners/README.md): ${secret}`);
  }
} finally {
  await sql.end({ timeout: 5 });
}
