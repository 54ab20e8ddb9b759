// Creates an operator or administrator and prints their key once; only its hash is stored.
//   npm run staff:create -- --name "Priya (ops)" [--role admin]
import { parseArgs } from 'node:util';
import { createStaff } from '../src/auth/staff.js';
import { migrate } from '../src/db/migrate.js';
import { createSql } from '../src/db/sql.js';

const { values } = parseArgs({ options: { name: { type: 'string' }, role: { type: 'string', default: 'operator' } } });
const url = process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:54329/taxi';
if (!values.name || (values.role !== 'operator' && values.role !== 'admin')) {
  console.error('usage: npm run staff:create -- --name "<who>" [--role operator|admin]');
  console.error('DATABASE_URL defaults to the embedded Postgres that `npm start` runs.');
  process.exit(2);
}
const sql = createSql(url, 2);
try {
  await migrate(sql);
  const { key, staff } = await createStaff(sql, { name: values.name, role: values.role });
  console.log(`Created ${staff.role} ${staff.id} "${staff.name}". Sign in at /ops with this key.`);
  console.log('Store it now; it cannot be shown again:');
  console.log(key);
} finally {
  await sql.end({ timeout: 5 });
}
