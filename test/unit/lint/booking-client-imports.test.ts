import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import * as definitions from '../../../workflows/bookings/definitions.js';

// Only the booking client sends the booking workflow its messages (docs/refusals.md): the lint
// must catch a message imported anywhere else in src/, activities/, scripts/ or dev/, and leave the
// client, the workflow's types and its other values (ids, search attributes) alone.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const probes: string[] = [];
const RULE = '@typescript-eslint/no-restricted-imports';

function probe(folder: string, code: string): string {
  const file = path.join(root, folder, `lint-probe-${process.pid}.ts`);
  fs.writeFileSync(file, code);
  probes.push(file);
  return file;
}

async function restricted(files: string[]): Promise<number[][]> {
  const results = await new ESLint({ cwd: root }).lintFiles(files);
  return results.map((r) => r.messages.filter((m) => m.ruleId === RULE).map((m) => m.line));
}

afterAll(() => {
  for (const file of probes) fs.rmSync(file, { force: true });
});

/** The Temporal messages (defineUpdate/Signal/Query values) the definitions module exports. */
const messages = Object.entries(definitions)
  .filter(
    ([, v]) =>
      typeof v === 'object' &&
      v !== null &&
      ['update', 'signal', 'query'].includes((v as { type?: string }).type ?? ''),
  )
  .map(([name]) => name)
  .sort();

describe('booking client lint', () => {
  it('knows every message the booking workflow defines', async () => {
    const config = (await new ESLint({ cwd: root }).calculateConfigForFile('src/settlement/settle.ts')) as {
      rules: Record<string, [string, { patterns: { group: string[]; importNames?: string[] }[] }]>;
    };
    const listed = config.rules[RULE]![1].patterns.filter((p) =>
      p.group.includes('**/workflows/bookings/definitions.js'),
    ).flatMap((p) => p.importNames ?? []);
    expect(messages.length).toBeGreaterThan(10);
    expect([...listed].sort()).toEqual(messages);
  });

  it('flags a message imported outside the client, at any depth, and allows ids and types', async () => {
    const code = (up: string) =>
      [
        `import { cancelBookingUpdate, bookingWorkflowId, type BookingWorkflowInput } from '${up}workflows/bookings/definitions.js';`,
        `import type { settleBookingUpdate } from '${up}workflows/bookings/definitions.js';`,
        `export const used: unknown[] = [cancelBookingUpdate, bookingWorkflowId];`,
        `export type Used = [BookingWorkflowInput, typeof settleBookingUpdate];`,
        '',
      ].join('\n');
    const files = [
      probe('src/settlement', code('../../')),
      probe('src/bookings/request', code('../../../')),
      probe('activities/partners', code('../../')),
      probe('scripts', code('../')),
      probe('dev', code('../')),
    ];
    expect(await restricted(files)).toEqual([[1], [1], [1], [1], [1]]);
  }, 60_000);

  it('leaves the client alone', async () => {
    expect(await restricted(['src/bookings/client.ts', 'src/partners/job-client.ts'])).toEqual([[], []]);
  }, 60_000);

  it("flags the partner job workflow's messages outside its own client, the booking client included", async () => {
    const code = (up: string) =>
      [
        `import { submitJobUpdate, partnerJobWorkflowId } from '${up}workflows/partners/job-definitions.js';`,
        `export const used: unknown[] = [submitJobUpdate, partnerJobWorkflowId];`,
        '',
      ].join('\n');
    const files = [probe('src/partners', code('../../')), probe('src/bookings', code('../../'))];
    expect(await restricted(files)).toEqual([[1], [1]]);
  }, 60_000);
});
