import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';

// A use case refuses with a Refusal, never an HTTP problem (docs/refusals.md): the lint must catch
// ProblemError imported into any use-case folder, at any depth, and leave the HTTP layer and the
// modules that render refusals (MCP's tool error, a partner's rejected job) alone.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const probes: string[] = [];

function probe(folder: string, code: string): string {
  const file = path.join(root, folder, `lint-probe-${process.pid}.ts`);
  fs.writeFileSync(file, code);
  probes.push(file);
  return file;
}

async function restricted(files: string[]): Promise<Record<string, number[]>> {
  const results = await new ESLint({ cwd: root }).lintFiles(files);
  return Object.fromEntries(
    results.map((r) => [
      path.relative(root, r.filePath),
      r.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.line),
    ]),
  );
}

afterAll(() => {
  for (const file of probes) fs.rmSync(file, { force: true });
});

describe('refusal lint', () => {
  it('flags ProblemError imported into a use case, and allows the Refusal', async () => {
    const code = (up: string) =>
      [
        `import { ProblemError } from '${up}http/problem.js';`,
        `import { Refusal } from '${up}refusal.js';`,
        'export const used: unknown[] = [ProblemError, Refusal];',
        '',
      ].join('\n');
    const files = [
      probe('src/bookings/request', code('../../')),
      probe('src/partners', code('../')),
      probe('src/mcp', code('../')),
      probe('src/quotes', code('../')),
    ];
    const found = await restricted(files);
    expect(Object.values(found)).toEqual([[1], [1], [1], [1]]);
  }, 60_000);

  it('leaves HTTP, the partner endpoints’ credentials and body parsing, and the renderers alone', async () => {
    const files = [
      'src/routes/bookings.ts',
      'src/partners/auth.ts',
      'src/partners/raw-body.ts',
      'src/partners/job-rejection.ts',
      'src/mcp/refusal-result.ts',
    ];
    const found = await restricted(files.map((f) => path.join(root, f)));
    expect(Object.values(found)).toEqual(files.map(() => []));
  }, 60_000);
});
