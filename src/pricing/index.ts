// Public API of the pricing engine. Everything else in src/pricing is an implementation detail.
export { priceJourney, priceJourneyWith } from './price-journey.js';
export { meterReading, type MeterAnswer, type MeterQuestion } from './meter-calculator.js';
export { loadPricingData, defaultPricingData, type PricingData } from './pricing-data.js';
export { TariffBook, loadTariffBook, NATIONAL_DEFAULT_AREA } from './tariff-book.js';
export { BankHolidayCalendar, loadBankHolidays, divisionForCountry } from './bank-holidays.js';
export { licensingAreaFor, loadAreaMap, type AreaMap } from './licensing-area.js';
export { readMeter, type MeterReading } from './meter.js';
export { MEET_AND_GREET_PENCE, meetAndGreetApplies } from './surcharges.js';
export {
  TariffAreaSchema,
  TariffVersionSchema,
  type TariffArea,
  type TariffVersion,
  type Rate,
} from './tariff-schema.js';
export * from './types.js';
