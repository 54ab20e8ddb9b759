import { DateTime } from 'luxon';

// What passengers and drivers read: London wall-clock time with GMT/BST spelled out (visitors and
// phones in other zones see the time at the kerb), money in pounds, codes as words.

export function londonDateTime(at: Date): string {
  // en-GB names the zone BST/GMT; the default locale would say "GMT+1".
  return DateTime.fromJSDate(at, { zone: 'Europe/London' }).setLocale('en-GB').toFormat('ccc d LLL yyyy, HH:mm ZZZZ');
}

const GBP = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });

export function pounds(pence: number): string {
  return GBP.format(pence / 100);
}

export { tripWords, vehicleLabel, vehicleNeeds } from './browser/words.js';

export const PAYMENT_METHODS = [
  { value: 'cash_to_driver', label: 'Cash to the driver' },
  { value: 'card_to_driver', label: 'Card to the driver' },
  { value: 'account', label: 'Account' },
] as const;

export function paymentLabel(method: string): string {
  const known = PAYMENT_METHODS.find((m) => m.value === method);
  // v1 bookings carry other method names (cash, bank_transfer, ...): readable as they are.
  return known?.label ?? method.replace(/_/g, ' ');
}

export function passengersLabel(n: number): string {
  return `${n} passenger${n === 1 ? '' : 's'}`;
}
