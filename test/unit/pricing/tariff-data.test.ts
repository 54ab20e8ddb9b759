import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  TariffAreaSchema,
  TariffBook,
  defaultPricingData,
  licensingAreaFor,
  loadTariffBook,
  priceJourneyWith,
  type TariffArea,
} from '../../../src/pricing/index.js';
import {
  GLASGOW_CENTRE,
  HARROGATE,
  MANCHESTER_CENTRE,
  NEWPORT_ISLE_OF_WIGHT,
  NEWPORT_PEMBROKESHIRE,
  NEWPORT_SHROPSHIRE,
  NEWPORT_WALES,
  WESTMINSTER,
  place,
  request,
  route,
} from './fixtures.js';

const TARIFF_DIR = join(import.meta.dirname, '../../../data/tariffs');
const readJson = (file: string): unknown => JSON.parse(readFileSync(join(TARIFF_DIR, file), 'utf8'));

describe('tariff files', () => {
  const book = loadTariffBook(TARIFF_DIR);

  it('all validate and cover every area', () => {
    expect(book.areaIds()).toEqual([
      'aberdeen',
      'birmingham',
      'blackpool',
      'bracknell-forest',
      'bradford',
      'brighton-and-hove',
      'cambridge',
      'dumfries-and-galloway',
      'edinburgh',
      'glasgow',
      'leeds',
      'london-tfl',
      'manchester',
      'national-default',
      'newport',
      'nottingham',
      'sheffield',
      'south-gloucestershire',
      'south-hams',
      'south-ribble',
      'walsall',
      'wirral',
      'york',
    ]);
  });

  it('mark derived tables provisional and the national default as a service default', () => {
    for (const v of book.area('london-tfl')!.versions) expect(v.provisional).toBe(true);
    for (const id of ['wirral', 'birmingham', 'edinburgh', 'leeds', 'blackpool', 'national-default']) {
      for (const v of book.area(id)!.versions) expect(v.provisional, id).toBe(true);
    }
    expect(book.area('national-default')).toMatchObject({ kind: 'service_default' });
    for (const id of [
      'manchester',
      'glasgow',
      'south-gloucestershire',
      'bracknell-forest',
      'sheffield',
      'nottingham',
      'newport',
      'aberdeen',
      'south-ribble',
      'south-hams',
    ]) {
      expect(book.area(id)!.kind).toBe('council');
      expect(book.area(id)!.versions.at(-1)!.provisional, id).toBe(false);
    }
    // Cambridge revises every April and no table after April 2023 was found
    expect(book.area('cambridge')!.versions.map((v) => [v.effectiveFrom, v.provisional])).toEqual([
      ['2023-04-01', false],
      ['2024-04-01', true],
    ]);
    // Nottingham's night money is assumed
    expect(book.versionFor('nottingham', '2026-01-01')!.rates['night']!.provisional).toBe(true);
  });

  it('holds no proposed table, and refuses to load one', () => {
    for (const id of book.areaIds()) {
      for (const v of book.area(id)!.versions) expect(v.status, id).not.toBe('proposed');
    }
    const dir = mkdtempSync(join(tmpdir(), 'tariffs-'));
    try {
      copyFileSync(join(TARIFF_DIR, 'national-default.json'), join(dir, 'national-default.json'));
      copyFileSync(join(TARIFF_DIR, 'proposed', 'york.json'), join(dir, 'york.json'));
      expect(() => loadTariffBook(dir)).toThrow(/proposed/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('validates the newer schema features', () => {
    const manchester = readJson('manchester.json') as TariffArea;
    const version = manchester.versions[0]!;
    const withPeriods = (periods: unknown) => ({ ...manchester, versions: [{ ...version, periods }] });
    // a bank-holiday window needs both ends
    const halfWindow = withPeriods([
      { ...version.periods[2]!, when: [{ type: 'bank_holiday', from: '07:00' }] },
      version.periods[3],
    ]);
    expect(TariffAreaSchema.safeParse(halfWindow).success).toBe(false);
    const window = withPeriods([
      { ...version.periods[2]!, when: [{ type: 'bank_holiday', from: '07:00', to: '07:00' }] },
      version.periods[3],
    ]);
    expect(TariffAreaSchema.safeParse(window).success).toBe(true);
    // a supplement tied to a period that does not exist
    const supplement = {
      id: 's',
      code: 'bank_holiday',
      name: 's',
      amountPence: 100,
      appliesAt: 'start',
      periods: ['nope'],
      when: [{ type: 'bank_holiday' }],
    };
    expect(
      TariffAreaSchema.safeParse({ ...manchester, versions: [{ ...version, supplements: [supplement] }] }).success,
    ).toBe(false);
    // a per-rate switch naming an unknown rate
    const switchRate = { name: 'x', afterMeters: 1000, rate: 'tariff1', byRate: { tariff2: 'nope' } };
    expect(TariffAreaSchema.safeParse({ ...manchester, versions: [{ ...version, switchRate }] }).success).toBe(false);
    // a per-rate switch point naming an unknown rate (Leeds switches at a different distance on each tariff)
    const switchPoint = { name: 'x', afterMeters: 1000, rate: 'tariff1', afterMetersByRate: { nope: 900 } };
    expect(
      TariffAreaSchema.safeParse({ ...manchester, versions: [{ ...version, switchRate: switchPoint }] }).success,
    ).toBe(false);
    const goodSwitchPoint = { ...switchPoint, afterMetersByRate: { [version.periods[0]!.rate]: 900 } };
    expect(
      TariffAreaSchema.safeParse({ ...manchester, versions: [{ ...version, switchRate: goodSwitchPoint }] }).success,
    ).toBe(true);
  });

  it('picks the version in force on the local date, from the start of its effective day', () => {
    expect(book.versionFor('london-tfl', '2026-04-24')?.effectiveFrom).toBe('2025-04-30');
    expect(book.versionFor('london-tfl', '2026-04-25')?.effectiveFrom).toBe('2026-04-25');
    expect(book.versionFor('glasgow', '2025-09-30')?.effectiveFrom).toBe('2024-09-01');
    expect(book.versionFor('glasgow', '2025-10-01')?.effectiveFrom).toBe('2025-10-01');
    expect(book.versionFor('london-tfl', '2024-04-19')?.effectiveFrom).toBe('2023-04-30');
    expect(book.versionFor('london-tfl', '2022-04-29')).toBeNull();
    expect(book.versionFor('nowhere', '2026-01-01')).toBeNull();
  });

  it('rejects a tariff whose period names a missing rate, or that leaves some instant without a period', () => {
    const manchester = readJson('manchester.json') as TariffArea;
    const version = manchester.versions[0]!;
    const badRate = { ...manchester, versions: [{ ...version, periods: [{ ...version.periods[3]!, rate: 'nope' }] }] };
    expect(TariffAreaSchema.safeParse(badRate).success).toBe(false);
    const noAlways = { ...manchester, versions: [{ ...version, periods: version.periods.slice(0, 3) }] };
    expect(TariffAreaSchema.safeParse(noAlways).success).toBe(false);
    const unsorted = { ...manchester, versions: [version, { ...version, effectiveFrom: '2020-01-01' }] };
    expect(TariffAreaSchema.safeParse(unsorted).success).toBe(false);
  });

  it('prices against an explicit book (tests can pin their own tariffs)', () => {
    const data = defaultPricingData();
    const onlyDefault = new TariffBook([readJson('national-default.json') as TariffArea]);
    // Manchester pickup, but the book has no Manchester: no_tariff rather than a silent fallback
    expect(() =>
      priceJourneyWith(
        { ...data, tariffs: onlyDefault },
        request({ pickup: MANCHESTER_CENTRE, route: route(5000, 600), departAt: new Date('2026-06-17T09:00:00Z') }),
      ),
    ).toThrow(/no manchester tariff/);
    // national default day, 5 km / 600 s = £10.80
    expect(
      priceJourneyWith(
        { ...data, tariffs: onlyDefault },
        request({ pickup: HARROGATE, route: route(5000, 600), departAt: new Date('2026-06-17T09:00:00Z') }),
      ).totalPence,
    ).toBe(1080);
  });
});

describe('licensing area', () => {
  const { areaMap } = defaultPricingData();
  const area = (council: string | null, region: string | null) =>
    licensingAreaFor(place('x', council, region, 'England'), areaMap);

  it('maps councils and London, with OS and everyday spellings', () => {
    expect(area('Westminster', 'London')).toBe('london-tfl');
    expect(area('Hillingdon', 'London')).toBe('london-tfl');
    expect(area('Manchester', 'North West')).toBe('manchester');
    expect(area('Glasgow City', 'Scotland')).toBe('glasgow');
    expect(area('South Gloucestershire', 'South West')).toBe('south-gloucestershire');
    expect(area('Bracknell Forest', 'South East')).toBe('bracknell-forest');
    expect(area('The City of Brighton and Hove', 'South East')).toBe('brighton-and-hove');
    expect(area('Brighton & Hove', 'South East')).toBe('brighton-and-hove');
    expect(area('Wirral', 'North West')).toBe('wirral');
    expect(area('Birmingham', 'West Midlands')).toBe('birmingham');
    expect(area('City of Edinburgh', 'Scotland')).toBe('edinburgh');
    expect(area('Sheffield', 'Yorkshire and the Humber')).toBe('sheffield');
    expect(area('City of Nottingham', 'East Midlands')).toBe('nottingham');
    expect(area('Nottingham', 'East Midlands')).toBe('nottingham');
    expect(area('Gedling', 'East Midlands')).toBe('national-default'); // Nottinghamshire, not the city
    expect(area('Cambridge', 'Eastern')).toBe('cambridge');
    expect(area('South Cambridgeshire', 'Eastern')).toBe('national-default');
    expect(area('Casnewydd - Newport', 'Wales')).toBe('newport');
    expect(area('Aberdeen City', 'Scotland')).toBe('aberdeen');
    expect(area('Aberdeenshire', 'Scotland')).toBe('national-default');
    expect(area('South Ribble', 'North West')).toBe('south-ribble');
    expect(area('Preston', 'North West')).toBe('national-default');
    expect(area('Walsall', 'West Midlands')).toBe('walsall');
    expect(area('Bradford', 'Yorkshire and the Humber')).toBe('bradford');
    expect(area('Leeds', 'Yorkshire and the Humber')).toBe('leeds');
    expect(area('Kirklees', 'Yorkshire and the Humber')).toBe('national-default');
    expect(area('South Hams', 'South West')).toBe('south-hams');
    expect(area('City of Plymouth', 'South West')).toBe('national-default');
    expect(area('Torbay', 'South West')).toBe('national-default');
    expect(area('Blackpool', 'North West')).toBe('blackpool');
    expect(area('Wyre', 'North West')).toBe('national-default');
    expect(area('Fylde', 'North West')).toBe('national-default');
    expect(area('Dumfries & Galloway', 'Scotland')).toBe('dumfries-and-galloway');
    expect(area('Trafford', 'North West')).toBe('national-default');
    expect(area(null, null)).toBe('national-default');
  });

  it('only the Welsh city council is Newport: the other Newports keep their own councils', () => {
    const data = defaultPricingData();
    const departAt = new Date('2026-06-17T09:00:00Z');
    const areaOf = (pickup: typeof NEWPORT_WALES) =>
      priceJourneyWith(data, request({ pickup, route: route(5000, 600), departAt })).tariff.areaId;
    expect(areaOf(NEWPORT_WALES)).toBe('newport');
    expect(areaOf(NEWPORT_ISLE_OF_WIGHT)).toBe('national-default');
    expect(areaOf(NEWPORT_SHROPSHIRE)).toBe('national-default');
    expect(areaOf(NEWPORT_PEMBROKESHIRE)).toBe('national-default');
  });

  it('the pickup decides, not the destination', () => {
    const data = defaultPricingData();
    const departAt = new Date('2026-06-17T09:00:00Z');
    expect(
      priceJourneyWith(
        data,
        request({ pickup: MANCHESTER_CENTRE, dropoff: WESTMINSTER, route: route(300000, 16000), departAt }),
      ).tariff.areaId,
    ).toBe('manchester');
    expect(
      priceJourneyWith(
        data,
        request({ pickup: WESTMINSTER, dropoff: GLASGOW_CENTRE, route: route(600000, 30000), departAt }),
      ).tariff.areaId,
    ).toBe('london-tfl');
    expect(
      priceJourneyWith(
        data,
        request({ pickup: HARROGATE, dropoff: MANCHESTER_CENTRE, route: route(60000, 3600), departAt }),
      ).tariff.areaId,
    ).toBe('national-default');
  });
});
