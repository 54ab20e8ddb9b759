// Issue 40 (3), the fare test: a wheelchair user, their mobility aids and an assistance dog never
// change the fare (Equality Act 2010 ss.165 and 168). Over every tariff the service holds, journeys
// short to long, by day, by night and on a bank holiday, for every vehicle class and group size:
// a booking with an assistance dog prices exactly as one without, and a wheelchair user's
// wheelchair-accessible vehicle exactly as the standard car for the same group.
import { describe, expect, it } from 'vitest';
import { defaultPricingData, licensingAreaFor, loadAreaMap, priceJourney } from '../../../src/pricing/index.js';
import { SEATS } from '../../../src/quotes/vehicle-choice.js';
import { VEHICLE_TYPES, type PriceRequest, type VehicleType } from '../../../src/pricing/types.js';
import { place, request, route } from './fixtures.js';

const areaMap = loadAreaMap();
const book = defaultPricingData().tariffs;

/** A pickup the area map sends to each area (the national default: a council no table holds). */
function pickupIn(areaId: string) {
  const rule = areaMap.rules.find((r) => r.areaId === areaId);
  const name = rule?.equals[0] ?? 'Rutland';
  const pickup =
    rule?.field === 'region' ? place(name, 'Westminster', name, 'England') : place(name, name, null, 'England');
  expect(licensingAreaFor(pickup, areaMap), `a pickup for ${areaId}`).toBe(areaId);
  return pickup;
}

const ROUTES = [route(800, 240), route(4_500, 900), route(16_000, 1_800), route(60_000, 3_600)];
// A weekday noon, a weekday 2 a.m. (night rates) and Christmas Day evening (bank holiday rates), UK time.
const TIMES = ['2026-06-10T11:00:00Z', '2026-06-10T01:00:00Z', '2026-12-25T19:30:00Z'].map((t) => new Date(t));

describe('fares for disabled passengers', () => {
  it('covers every tariff the service holds', () => {
    expect(book.areaIds().length).toBeGreaterThan(20);
  });

  for (const areaId of book.areaIds()) {
    it(`${areaId}: an assistance dog or a wheelchair never changes the fare`, () => {
      const pickup = pickupIn(areaId);
      let priced = 0;
      for (const r of ROUTES)
        for (const departAt of TIMES) {
          const fare = (over: Partial<PriceRequest>) => priceJourney(request({ pickup, route: r, departAt, ...over }));
          for (const vehicleType of VEHICLE_TYPES as readonly VehicleType[])
            for (let passengers = 1; passengers <= SEATS[vehicleType]; passengers++) {
              const without = fare({ vehicleType, passengers });
              const withDog = fare({ vehicleType, passengers, assistanceDog: true });
              expect(withDog.totalPence, `${areaId} ${vehicleType} x${passengers} ${departAt.toISOString()}`).toBe(
                without.totalPence,
              );
              // Said, at zero, so the passenger need not wonder.
              expect(withDog.rules).toContainEqual(expect.objectContaining({ code: 'assistance_dog', amountPence: 0 }));
              priced++;
            }
          // The wheelchair user's accessible vehicle against the standard car, for every group a car carries.
          for (let passengers = 1; passengers <= SEATS.saloon; passengers++) {
            const car = fare({ vehicleType: 'saloon', passengers });
            for (const assistanceDog of [false, true]) {
              const wav = fare({ vehicleType: 'wav', passengers, assistanceDog });
              expect(wav.totalPence, `${areaId} wav x${passengers} ${departAt.toISOString()}`).toBe(car.totalPence);
            }
          }
        }
      expect(priced).toBeGreaterThan(100);
    });
  }
});
