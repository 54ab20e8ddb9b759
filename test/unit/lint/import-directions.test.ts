import { describe, expect, it } from 'vitest';
import { areaOf, mutualPairs } from '../../../scripts/check-import-directions.js';

// The counter behind `npm run lint`'s "at most 5 folder pairs import each other"
// (docs/architecture.md): what a folder is, and which pairs count.
const mod = (source: string, ...deps: string[]) => ({
  source,
  dependencies: deps.map((resolved) => ({
    resolved: resolved.replace(/ \(type\)$/, ''),
    dependencyTypes: resolved.endsWith('(type)') ? ['local', 'type-only'] : ['local'],
  })),
});

describe('areaOf', () => {
  it('is the first folder under src/, activities/ or workflows/, at any depth', () => {
    expect(areaOf('src/bookings/request/v1.ts')).toBe('src/bookings');
    expect(areaOf('workflows/bookings/v1/workflow.ts')).toBe('workflows/bookings');
    expect(areaOf('activities/partners/jobs.ts')).toBe('activities/partners');
    expect(areaOf('src/app.ts')).toBe('src');
  });
});

describe('mutualPairs', () => {
  it('counts two areas importing each other once, type-only imports included', () => {
    const pairs = mutualPairs([
      mod('src/dispatch/upcoming.ts', 'src/drivers/store.ts (type)'),
      mod('src/drivers/offers.ts', 'src/dispatch/store.ts', 'src/db/sql.ts'),
      mod('src/drivers/app.ts', 'src/dispatch/policy.ts'),
    ]);
    expect(pairs).toEqual([
      {
        a: 'src/dispatch',
        b: 'src/drivers',
        aToB: ['src/dispatch/upcoming.ts -> src/drivers/store.ts (type)'],
        bToA: ['src/drivers/offers.ts -> src/dispatch/store.ts', 'src/drivers/app.ts -> src/dispatch/policy.ts'],
      },
    ]);
  });

  it('finds a pair whose imports come from subfolders of the areas', () => {
    const pairs = mutualPairs([
      mod('src/bookings/request/partner-job.ts', 'src/partners/store.ts'),
      mod('src/partners/intake.ts', 'src/bookings/request/partner-job.ts'),
    ]);
    expect(pairs.map((p) => `${p.a} <-> ${p.b}`)).toEqual(['src/bookings <-> src/partners']);
  });

  it('leaves one-way imports, files within one area and npm packages alone', () => {
    const pairs = mutualPairs([
      mod('src/bookings/book.ts', 'src/db/sql.ts', 'src/bookings/store.ts', 'node_modules/zod/index.js'),
      mod('src/bookings/request/v1.ts', 'src/bookings/passenger-input.ts'),
      mod('src/bookings/passenger-input.ts', 'src/bookings/request/index.ts'),
    ]);
    expect(pairs).toEqual([]);
  });

  it('does not count a root wiring its own folders in (src/app.ts, workflows/index.ts)', () => {
    const pairs = mutualPairs([
      mod('src/app.ts', 'src/routes/home.ts'),
      mod('src/routes/home.ts', 'src/refusal.ts'),
      mod('workflows/index.ts', 'workflows/drivers/workflow.ts'),
      mod('workflows/drivers/workflow.ts', 'workflows/activities.ts'),
    ]);
    expect(pairs).toEqual([]);
  });

  it('counts activities/ and a workflow folder importing each other', () => {
    const pairs = mutualPairs([
      mod('activities/quotes.ts', 'workflows/quotes/definitions.ts (type)'),
      mod('workflows/quotes/workflow.ts', 'activities/index.ts (type)'),
    ]);
    expect(pairs.map((p) => `${p.a} <-> ${p.b}`)).toEqual(['activities <-> workflows/quotes']);
  });
});
