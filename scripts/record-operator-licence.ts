// Puts a fleet's operator licence on file (docs/records.md, "Sub-contracting"): a partner fleet is
// offered none of our bookings, and an exchange fleet handed none, until one of the kind the vehicle
// needs is on file and valid at pickup. The same authority, number and kind again renews it.
//   npm run operator-licence:record -- --fleet fleet-b --exchange --authority "Manchester City Council" \
//     --number PHO-0042 --expires 2027-03-31 [--kind private_hire|psv] [--by "Priya (ops)"]
import { scriptArgs } from './script-args.js';
import { migrate } from '../src/db/migrate.js';
import { stackDatabaseOrExit } from '../dev/stack-settings.js';
import { putLicenceOnFile } from '../src/operator-licences/record.js';
import { OperatorLicenceRequest } from '../src/schemas/operator-licences.js';
import { Refusal } from '../src/refusal.js';

const usage =
  'usage: npm run operator-licence:record -- --fleet <id> [--exchange] --authority "<council>" --number <licence no.> --expires YYYY-MM-DD [--kind private_hire|psv] [--by "<who>"]\n' +
  '  --exchange: the fleet is an exchange fleet (npm run exchange:register); otherwise a partner fleet whose drivers we dispatch.';
const values = scriptArgs(
  {
    fleet: { type: 'string' },
    exchange: { type: 'boolean', default: false },
    authority: { type: 'string' },
    number: { type: 'string' },
    expires: { type: 'string' },
    kind: { type: 'string', default: 'private_hire' },
    by: { type: 'string', default: 'operator-licence:record' },
  },
  usage,
);
const licence = OperatorLicenceRequest.safeParse({
  authority: values.authority,
  number: values.number,
  kind: values.kind,
  expires_on: values.expires,
});
if (!values.fleet || !licence.success) {
  if (!licence.success)
    for (const issue of licence.error.issues) console.error(`${issue.path.join('.') || 'licence'}: ${issue.message}`);
  console.error(usage);
  process.exit(2);
}
const { sql } = await stackDatabaseOrExit('operator-licence:record', 2);
try {
  await migrate(sql);
  const on = await putLicenceOnFile(
    sql,
    { kind: values.exchange ? 'exchange_fleet' : 'partner_fleet', id: values.fleet },
    licence.data,
    values.by,
  );
  console.log(`${on.holderName} (${on.holderKind.replace('_', ' ')} ${on.holderId}), licences on file:`);
  for (const l of on.licences)
    console.log(
      `  ${l.authority} ${l.kind.replace('_', ' ')} ${l.number}, valid to ${l.expires_on}${l.inDate ? '' : ' (lapsed)'}`,
    );
} catch (err) {
  if (!(err instanceof Refusal)) throw err;
  console.error(err.message);
  process.exitCode = 1;
} finally {
  await sql.end({ timeout: 5 });
}
