import { describe, expect, it } from 'vitest';
import { createGeoProviders, preloadGazetteer } from '../../../src/geo/index.js';

describe('createGeoProviders', () => {
  it('answers geocode calls made before the preload has finished, all from one load', async () => {
    const { geocoder } = createGeoProviders({ geocoder: 'embedded', router: 'estimate' });
    const preload = preloadGazetteer();
    const [piccadilly, airport] = await Promise.all([
      geocoder.geocode('Manchester Piccadilly'),
      geocoder.geocode('MAN'),
      preload,
    ]);
    expect(piccadilly?.crs).toBe('MAN');
    expect(airport?.iata).toBe('MAN');
    await expect(preloadGazetteer()).resolves.toBeUndefined();
  }, 30_000);

  it('routes between what the geocoder returns', async () => {
    const { geocoder, router } = createGeoProviders({ geocoder: 'embedded', router: 'estimate' });
    const from = await geocoder.geocode('Manchester Piccadilly');
    const to = await geocoder.geocode('Manchester Airport');
    if (!from || !to) throw new Error('geocoder found nothing');
    const route = await router.route(from, to);
    expect(route.model).toBe('estimate:circuity-v1');
    expect(route.distanceMeters).toBeGreaterThan(route.straightLineMeters);
    expect(route.durationSeconds).toBeGreaterThan(15 * 60);
  }, 30_000);
});
