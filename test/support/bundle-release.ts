// Keeps a released version's workflow code, as its workers ran it, beside that release's histories:
//   npx tsx test/support/bundle-release.ts
// writes test/histories/releases/<package.json version>/workflows.bundle.js, once (a release's code
// never changes). The upgrade test (test/workflows/upgrade.test.ts) starts bookings on it and
// finishes them on the current code, as a rolling deploy does (docs/versioning.md).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode } from '@temporalio/worker';
import { WORKFLOWS_PATH } from '../../src/temporal/create-worker.js';
import { quietLogger } from './time-skipping.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const { version } = JSON.parse(fs.readFileSync(path.join(here, '../../package.json'), 'utf8')) as { version: string };
const file = path.join(here, '../histories/releases', version, 'workflows.bundle.js');
if (fs.existsSync(file)) {
  console.log(`kept ${path.relative(process.cwd(), file)} (release ${version} is already bundled)`);
} else {
  const bundled = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: quietLogger });
  // The inline source map is two thirds of the size and only maps stack traces of a past release;
  // the worker insists on one being there, so an empty map stands in for it.
  const emptyMap = Buffer.from(JSON.stringify({ version: 3, sources: [], names: [], mappings: '' })).toString('base64');
  const code = bundled.code.replace(
    /\n\/\/# sourceMappingURL=data:[^\n]*\s*$/,
    `\n//# sourceMappingURL=data:application/json;base64,${emptyMap}\n`,
  );
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, code);
  console.log(
    `bundled release ${version}: ${path.relative(process.cwd(), file)} (${Math.round(code.length / 1024)} KB)`,
  );
}
