import { describe, expect, it } from 'vitest';
import { readMeter, type Rate } from '../../../src/pricing/index.js';

const manchesterDay: Rate = {
  name: 'Tariff 1 (day)',
  distanceUnit: 'm',
  flagFallPence: 340,
  initialDistance: 348.44,
  initialSeconds: null,
  unitPence: 20,
  unitDistance: 123,
  unitSeconds: 31.57,
  provisional: false,
};

describe('meter', () => {
  it('charges nothing beyond the flag until the initial distance is passed', () => {
    expect(readMeter(manchesterDay, { distanceMeters: 348.44, durationSeconds: 0 }).pence).toBe(340);
    expect(readMeter(manchesterDay, { distanceMeters: 0, durationSeconds: 0 }).pence).toBe(340);
  });

  it('lands exactly on unit boundaries without floating-point drift, and charges a started unit in full', () => {
    // 348.44 + 10 x 123 = 1578.44 m is exactly 10 units (£3.40 + £2.00); 1 mm more starts the 11th
    expect(readMeter(manchesterDay, { distanceMeters: 1578.44, durationSeconds: 0 }).pence).toBe(540);
    expect(readMeter(manchesterDay, { distanceMeters: 1578.441, durationSeconds: 0 }).pence).toBe(560);
    // 0.1 + 0.2 style sums: 348.44 + 3 x 123 = 717.44 m exactly 3 units
    expect(
      readMeter(manchesterDay, { distanceMeters: 348.44 + 123 + 123 + 123, durationSeconds: 0 }).main.distanceUnits,
    ).toBe(3);
  });

  it('converts yards exactly (Glasgow: 880 yd initial, 174 yd units)', () => {
    const glasgow: Rate = {
      ...manchesterDay,
      distanceUnit: 'yd',
      flagFallPence: 450,
      initialDistance: 880,
      initialSeconds: 165,
      unitPence: 30,
      unitDistance: 174,
      unitSeconds: 37,
    };
    // 880 + 3 x 174 = 1402 yd = 1281.9888 m -> exactly 3 units: £4.50 + 90p
    expect(readMeter(glasgow, { distanceMeters: 1281.9888, durationSeconds: 0 }).pence).toBe(540);
  });

  it('time governs below the changeover speed', () => {
    // 500 m in 10 min: distance (500 - 348.44) / 123 = 1.23 -> 2; time 600 / 31.57 = 19.005 -> 20 -> £3.40 + £4.00
    const reading = readMeter(manchesterDay, { distanceMeters: 500, durationSeconds: 600 });
    expect(reading.main).toMatchObject({ distanceUnits: 2, timeUnits: 20, unitsCharged: 20 });
    expect(reading.pence).toBe(740);
  });

  it('distance-only tariffs ignore time', () => {
    const distanceOnly: Rate = { ...manchesterDay, unitSeconds: null };
    expect(readMeter(distanceOnly, { distanceMeters: 500, durationSeconds: 6000 }).pence).toBe(380);
  });

  it('splits time in proportion to distance at a switch point', () => {
    const after: Rate = { ...manchesterDay, unitPence: 10, unitDistance: 100, unitSeconds: 10 };
    // 2000 m in 1000 s, switch at 1000 m: before = 500 s, after = 500 s
    // before: distance (1000 - 348.44) / 123 = 5.30 -> 6; time 500 / 31.57 = 15.84 -> 16 -> 16 x 20p = £3.20
    // after:  distance 1000 / 100 = 10; time 500 / 10 = 50 -> 50 x 10p = £5.00
    const reading = readMeter(
      manchesterDay,
      { distanceMeters: 2000, durationSeconds: 1000 },
      { afterMeters: 1000, rate: after },
    );
    expect(reading.main.unitsCharged).toBe(16);
    expect(reading.beyondSwitch?.unitsCharged).toBe(50);
    expect(reading.pence).toBe(340 + 320 + 500);
  });
});
