import { join } from 'node:path';
import { loadBankHolidays, type BankHolidayCalendar } from './bank-holidays.js';
import { DATA_DIR } from './data-dir.js';
import { loadAreaMap, type AreaMap } from './licensing-area.js';
import { loadTariffBook, type TariffBook } from './tariff-book.js';

/** Everything a price depends on besides the request; tests build their own to pin the data. */
export interface PricingData {
  tariffs: TariffBook;
  holidays: BankHolidayCalendar;
  areaMap: AreaMap;
}

export function loadPricingData(dataDir = DATA_DIR): PricingData {
  const tariffDir = join(dataDir, 'tariffs');
  return {
    tariffs: loadTariffBook(tariffDir),
    holidays: loadBankHolidays(join(dataDir, 'bank-holidays.json')),
    areaMap: loadAreaMap(join(tariffDir, 'area-map.json')),
  };
}

let cached: PricingData | undefined;

/** Loaded and validated on first use, then shared: the files do not change while the process runs. */
export function defaultPricingData(): PricingData {
  cached ??= loadPricingData();
  return cached;
}
