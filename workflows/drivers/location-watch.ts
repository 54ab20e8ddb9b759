import { acts } from '../activities.js';
import { watchEachMinute } from '../watch.js';
import { locationWatchStateQuery, type LocationWatchInput } from './definitions.js';

/**
 * `drivers:location-watch`: each minute, text every online driver whose app has gone quiet that
 * dispatch will soon pass them over, once per silence (the activity claims each in Postgres). A
 * driver is never left online and silently out of work. After a day of looks it continues as new.
 */
export async function driverLocationWatchWorkflow(input: LocationWatchInput = {}): Promise<void> {
  await watchEachMinute('warned', input, locationWatchStateQuery, async () => {
    return (await acts.warnDriversLosingLocation()).warned;
  });
}
