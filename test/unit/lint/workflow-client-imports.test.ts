import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import * as billing from '../../../workflows/billing/definitions.js';
import * as bookings from '../../../workflows/bookings/definitions.js';
import * as drivers from '../../../workflows/drivers/definitions.js';
import * as ops from '../../../workflows/ops/definitions.js';
import * as delivery from '../../../workflows/partners/delivery-definitions.js';
import * as jobs from '../../../workflows/partners/job-definitions.js';
import * as quotes from '../../../workflows/quotes/definitions.js';

// Each workflow has one client (docs/refusals.md): the lint must catch a workflow's message imported
// anywhere else in src/, activities/, scripts/ or dev/ (another workflow's client included), and
// leave each client, the workflows' types and their other values (ids, search attributes) alone.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const probes: string[] = [];
const RULE = '@typescript-eslint/no-restricted-imports';

function probe(folder: string, code: string): string {
  const file = path.join(root, folder, `lint-probe-${process.pid}-${probes.length}.ts`);
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

/** The Temporal messages (defineUpdate/Signal/Query values) a definitions module exports. */
const messagesOf = (definitions: Record<string, unknown>) =>
  Object.entries(definitions)
    .filter(
      ([, v]) =>
        typeof v === 'object' &&
        v !== null &&
        ['update', 'signal', 'query'].includes((v as { type?: string }).type ?? ''),
    )
    .map(([name]) => name)
    .sort();

/** Each definitions module, with its workflows' clients. */
const MODULES = [
  { module: 'workflows/bookings/definitions', definitions: bookings, clients: ['src/bookings/client.ts'] },
  { module: 'workflows/partners/job-definitions', definitions: jobs, clients: ['src/partners/job-client.ts'] },
  { module: 'workflows/quotes/definitions', definitions: quotes, clients: ['src/quotes/client.ts'] },
  {
    module: 'workflows/billing/definitions',
    definitions: billing,
    clients: ['src/billing/subscription-client.ts', 'src/billing/collection-client.ts'],
  },
  {
    module: 'workflows/drivers/definitions',
    definitions: drivers,
    clients: ['src/drivers/licence-client.ts', 'src/drivers/location-watch-client.ts'],
  },
  { module: 'workflows/ops/definitions', definitions: ops, clients: ['src/ops/watch-client.ts'] },
  {
    module: 'workflows/partners/delivery-definitions',
    definitions: delivery,
    clients: ['src/partners/delivery-client.ts'],
  },
];
const CLIENTS = MODULES.flatMap((m) => m.clients);

type Pattern = { group: string[]; importNames?: string[] };
async function patternsFor(file: string): Promise<Pattern[]> {
  const config = (await new ESLint({ cwd: root }).calculateConfigForFile(file)) as {
    rules: Record<string, [string, { patterns: Pattern[] }]>;
  };
  return config.rules[RULE]![1].patterns;
}

describe('workflow client lint', () => {
  it('knows every message each workflow defines', async () => {
    const patterns = await patternsFor('src/settlement/settle.ts');
    expect(messagesOf(bookings).length).toBeGreaterThan(10);
    for (const { module, definitions } of MODULES) {
      const listed = patterns.filter((p) => p.group.includes(`**/${module}.js`)).flatMap((p) => p.importNames ?? []);
      expect([...listed].sort(), module).toEqual(messagesOf(definitions));
    }
  });

  it("exempts each client from its own workflow's messages only", async () => {
    for (const { module, definitions, clients } of MODULES) {
      for (const client of clients) {
        const patterns = await patternsFor(client);
        const listed = (m: string) =>
          patterns.filter((p) => p.group.includes(`**/${m}.js`)).flatMap((p) => p.importNames ?? []);
        // Its own workflow's messages are free to it; another's sharing the module (billing, drivers) are not.
        expect(listed(module).length, client).toBeLessThan(messagesOf(definitions).length);
        if (clients.length === 1) expect(listed(module), client).toEqual([]);
        for (const other of MODULES.filter((m) => m.module !== module))
          expect([...listed(other.module)].sort(), `${client}: ${other.module}`).toEqual(messagesOf(other.definitions));
      }
    }
  }, 60_000);

  it('flags a booking message imported outside the client, at any depth, and allows ids and types', async () => {
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

  it('leaves the clients alone', async () => {
    expect(await restricted(CLIENTS)).toEqual(CLIENTS.map(() => []));
  }, 60_000);

  it("flags each other workflow's messages outside its own client, another client included", async () => {
    const code = (up: string) =>
      [
        `import { submitJobUpdate, partnerJobWorkflowId } from '${up}workflows/partners/job-definitions.js';`,
        `import { redeemQuoteUpdate, quoteWorkflowId } from '${up}workflows/quotes/definitions.js';`,
        `import { extendTrialUpdate, invoicePaymentSignal, subscriptionWorkflowId } from '${up}workflows/billing/definitions.js';`,
        `import { licencesRenewedSignal, locationWatchStateQuery, licenceWorkflowId } from '${up}workflows/drivers/definitions.js';`,
        `import { opsWatchStateQuery, OPS_WATCH_WORKFLOW_ID } from '${up}workflows/ops/definitions.js';`,
        `import { eventsRecordedSignal, deliveryWorkflowId } from '${up}workflows/partners/delivery-definitions.js';`,
        `export const used: unknown[] = [submitJobUpdate, partnerJobWorkflowId, redeemQuoteUpdate, quoteWorkflowId,`,
        `  extendTrialUpdate, invoicePaymentSignal, subscriptionWorkflowId, licencesRenewedSignal, locationWatchStateQuery,`,
        `  licenceWorkflowId, opsWatchStateQuery, OPS_WATCH_WORKFLOW_ID, eventsRecordedSignal, deliveryWorkflowId];`,
        '',
      ].join('\n');
    const lines = async (folder: string) => {
      const found = (await restricted([probe(folder, code('../../'))]))[0]!;
      return [...new Set(found)];
    };
    // Everywhere else: each import line, the billing and drivers lines twice (two workflows' messages).
    const messages = async (folder: string) => {
      const results = await new ESLint({ cwd: root }).lintFiles([probe(folder, code('../../'))]);
      return results[0]!.messages.filter((m) => m.ruleId === RULE).length;
    };
    expect(await lines('src/routes')).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await messages('src/bookings')).toBe(8);
    expect(await lines('activities/partners')).toEqual([1, 2, 3, 4, 5, 6]);
  }, 60_000);
});
