import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';

// src/model/ is the vocabulary src/, activities/ and workflows/ all import, so it runs in the
// workflow sandbox: the lint must catch anything it imports from outside src/model/, type or value.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const probe = path.join(root, 'src/model', `lint-probe-${process.pid}.ts`);

async function lint(code: string) {
  fs.writeFileSync(probe, code);
  const [result] = await new ESLint({ cwd: root }).lintFiles([probe]);
  return (result?.messages ?? []).filter((m) => m.ruleId?.endsWith('no-restricted-imports')).map((m) => m.line);
}

afterAll(() => fs.rmSync(probe, { force: true }));

describe('model purity lint', () => {
  it('flags Node built-ins, Temporal and anything outside src/model/, and allows the model itself', async () => {
    const lines = await lint(
      [
        "import { isNextTripStep } from './bookings.js';",
        "import type { Tier } from './bookings.js';",
        "import { createHash } from 'node:crypto';",
        "import path from 'path';",
        "import type { Services } from '../services.js';",
        "import { findBooking } from '../bookings/store.js';",
        "import type { BookingWorkflowInput } from '../../workflows/bookings/definitions.js';",
        "import { defineSignal } from '@temporalio/workflow';",
        'export const used: unknown[] = [isNextTripStep, createHash, path, findBooking, defineSignal];',
        'export type Used = [Tier, Services, BookingWorkflowInput];',
        '',
      ].join('\n'),
    );
    expect(lines).toEqual([3, 4, 5, 6, 7, 8]);
  }, 60_000);
});
