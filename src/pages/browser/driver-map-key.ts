// The driver app's "Your map service" card (src/pages/driver-app-page.ts): a driver keeps their
// own Mapbox key, and the minutes their passengers are told are then routed, and billed, on it
// (src/drivers/map-service.ts). The key goes to the server once and is never shown back.
import { $, $input, say, sayError, type Api } from './dom.js';
import { mapServiceWords, type MapService } from './map-key-words.js';

export type { MapService } from './map-key-words.js';

/** Shows the key's state and wires its form; returns what to call with each fresh GET /api/driver/me. */
export function driverMapKey(o: { api: Api; refresh: () => Promise<void> }): (m: MapService | null) => void {
  const show = (m: MapService | null): void => {
    $('map-key-state').textContent = mapServiceWords(m);
    $('map-key-remove').hidden = m === null;
    $('map-key-submit').textContent = m ? 'Replace key' : 'Save key';
  };
  $('map-key-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const box = $input('map-key');
    o.api
      .json<MapService>('PUT', '/api/driver/map-service', { provider: 'mapbox', key: box.value })
      .then(async (m) => {
        box.value = '';
        show(m);
        say(`Key ending ${m.key_ending} saved: Mapbox accepted it.`, true);
        await o.refresh();
      })
      .catch(sayError);
  });
  $('map-key-remove').addEventListener('click', () => {
    o.api
      .send('DELETE', '/api/driver/map-service')
      .then(async () => {
        show(null);
        say('Your map key is removed: we estimate the minutes again, free.', true);
        await o.refresh();
      })
      .catch(sayError);
  });
  return show;
}
