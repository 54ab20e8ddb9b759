import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';

// The determinism lint must catch what would break replay: a value import of activities, stores or
// clients into workflow code, at any folder depth. Type imports stay allowed (workflows proxy
// activities by their type).
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const probe = path.join(root, 'workflows/bookings', `lint-probe-${process.pid}.ts`);

async function lint(code: string) {
  fs.writeFileSync(probe, code);
  const [result] = await new ESLint({ cwd: root }).lintFiles([probe]);
  return (result?.messages ?? []).filter((m) => m.ruleId?.endsWith('no-restricted-imports')).map((m) => m.line);
}

afterAll(() => fs.rmSync(probe, { force: true }));

describe('workflow determinism lint', () => {
  it('flags value imports from activities, src and Node built-ins, and allows type imports and the model', async () => {
    const lines = await lint(
      [
        "import { createActivities } from '../../activities/index.js';",
        "import type { Activities } from '../../activities/index.js';",
        "import { findBooking } from '../../src/bookings/store.js';",
        "import type { Services } from '../../src/services.js';",
        "import { createHash } from 'node:crypto';",
        "import { condition } from '@temporalio/workflow';",
        "import { isNextTripStep } from '../../src/model/bookings.js';",
        'export const used: unknown[] = [createActivities, findBooking, createHash, condition, isNextTripStep];',
        'export type Used = [Activities, Services];',
        '',
      ].join('\n'),
    );
    // Line 7 (the model, the vocabulary every layer shares) is allowed.
    expect(lines).toEqual([1, 3, 5]);
  }, 60_000);
});
