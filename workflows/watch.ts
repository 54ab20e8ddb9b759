// The service's minute-by-minute watches (ops-watch:unassigned, drivers:location-watch): one
// long-running workflow each, which looks once a minute and continues as new after a day of looks
// so its history stays bounded. Each names what it counts (alerted, warned); the name is part of its
// query answer and of its continue-as-new input, which released histories carry.
import { continueAsNew, setHandler, sleep, type QueryDefinition } from '@temporalio/workflow';

/** How often a watch looks. */
export const WATCH_INTERVAL_MS = 60_000;

/** Looks per run before continuing as new (a day of minutes: about 7,000 history events). */
export const WATCH_CHECKS_PER_RUN = 1440;

/** `checks`: looks in this run; `<counted>`: in this run; `<counted>Total`: across runs. */
export type WatchState<K extends string> = { checks: number } & { [P in K | `${K}Total`]: number };

/** What a run carries to the next: the total so far. */
export type WatchInput<K extends string> = { [P in `${K}Total`]?: number };

/**
 * A day of looks, one a minute (`look` returns what it acted on), answering `query` with the
 * counts, then continue-as-new with the total.
 */
export async function watchEachMinute<K extends string>(
  counted: K,
  input: WatchInput<K>,
  query: QueryDefinition<WatchState<K>>,
  look: () => Promise<readonly unknown[]>,
): Promise<void> {
  const total = `${counted}Total` as const;
  let checks = 0;
  let inRun = 0;
  let soFar = input[total] ?? 0;
  setHandler(query, () => ({ checks, [counted]: inRun, [total]: soFar }) as WatchState<K>);

  while (checks < WATCH_CHECKS_PER_RUN) {
    const acted = await look();
    checks += 1;
    inRun += acted.length;
    soFar += acted.length;
    await sleep(WATCH_INTERVAL_MS);
  }
  await continueAsNew({ [total]: soFar });
}
