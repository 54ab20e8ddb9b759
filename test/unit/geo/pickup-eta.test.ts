import { describe, expect, it } from 'vitest';
import { pickupEtaMinutes } from '../../../src/geo/pickup-eta.js';

describe('pickupEtaMinutes', () => {
  const pickup = { lat: 53.4774, lon: -2.2309 }; // Manchester Piccadilly

  it('stretches the straight line by 1.3 and drives it at 30 km/h, rounding up', () => {
    // 0.1° of latitude is 11.12 km: 14.46 km by road, 28.9 minutes.
    expect(pickupEtaMinutes({ lat: pickup.lat + 0.1, lon: pickup.lon }, pickup)).toBe(29);
    // 1 km: 1.3 km by road, 2.6 minutes.
    expect(pickupEtaMinutes({ lat: pickup.lat + 1 / 111.195, lon: pickup.lon }, pickup)).toBe(3);
  });

  it('says at least a minute, even for a driver at the door', () => {
    expect(pickupEtaMinutes(pickup, pickup)).toBe(1);
    expect(pickupEtaMinutes({ lat: pickup.lat + 0.0001, lon: pickup.lon }, pickup)).toBe(1);
  });

  it('is the same either way round', () => {
    const driver = { lat: 53.43, lon: -2.35 };
    expect(pickupEtaMinutes(driver, pickup)).toBe(pickupEtaMinutes(pickup, driver));
  });
});
