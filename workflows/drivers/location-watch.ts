import { continueAsNew, setHandler, sleep } from '@temporalio/workflow';
import { acts } from '../activities.js';
import {
  LOCATION_WATCH_CHECKS_PER_RUN,
  LOCATION_WATCH_INTERVAL_MS,
  locationWatchStateQuery,
  type LocationWatchInput,
  type LocationWatchState,
} from './definitions.js';

/**
 * `drivers:location-watch`: each minute, text every online driver whose app has gone quiet that
 * dispatch will soon pass them over, once per silence (the activity claims each in Postgres). A
 * driver is never left online and silently out of work. After a day of looks it continues as new.
 */
export async function driverLocationWatchWorkflow(input: LocationWatchInput = {}): Promise<void> {
  const state: LocationWatchState = { checks: 0, warned: 0, warnedTotal: input.warnedTotal ?? 0 };
  setHandler(locationWatchStateQuery, () => state);

  while (state.checks < LOCATION_WATCH_CHECKS_PER_RUN) {
    const { warned } = await acts.warnDriversLosingLocation();
    state.checks += 1;
    state.warned += warned.length;
    state.warnedTotal += warned.length;
    await sleep(LOCATION_WATCH_INTERVAL_MS);
  }
  await continueAsNew<typeof driverLocationWatchWorkflow>({ warnedTotal: state.warnedTotal });
}
