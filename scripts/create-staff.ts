// Creates an operator or administrator and prints their key once; only its hash is stored.
//   npm run staff:create -- --name "Priya (ops)" [--role admin]
import { scriptArgs } from './script-args.js';
import { createStaff } from '../src/auth/staff.js';
import { migrate } from '../src/db/migrate.js';
import { stackDatabaseOrExit } from '../dev/stack-settings.js';

const values = scriptArgs(
  { name: { type: 'string' }, role: { type: 'string', default: 'operator' } },
  'usage: npm run staff:create -- --name "<who>" [--role operator|admin]',
);
if (!values.name || (values.role !== 'operator' && values.role !== 'admin')) {
  console.error('usage: npm run staff:create -- --name "<who>" [--role operator|admin]');
  console.error(
    'The database is the one of the stack `npm start` runs with the same DATA_DIR (docs/configuration.md), unless DATABASE_URL names another.',
  );
  process.exit(2);
}
// Two connections: migrate holds one for its lock while it runs the migrations on the other.
const { sql } = await stackDatabaseOrExit('staff:create', 2);
try {
  await migrate(sql);
  const { key, staff } = await createStaff(sql, { name: values.name, role: values.role });
  console.log(`Created ${staff.role} ${staff.id} "${staff.name}". Sign in at /ops with this key.`);
  console.log('Store it now; it cannot be shown again:');
  console.log(key);
} finally {
  await sql.end({ timeout: 5 });
}
