import { defaultPricingData } from '../pricing/pricing-data.js';
import { NATIONAL_DEFAULT_AREA } from '../pricing/tariff-book.js';

// The licensing areas a driver can call home: the councils whose tariffs the service holds (a
// local driver is offered jobs starting in their own area) and, for everyone else, the national
// default. Dispatch compares the id; people read the name.

export interface HomeArea {
  id: string;
  name: string;
}

/** The councils we hold a tariff for, by name (the national default is "another council"). */
export function homeAreas(): HomeArea[] {
  const book = defaultPricingData().tariffs;
  return (
    book
      .areaIds()
      .filter((id) => id !== NATIONAL_DEFAULT_AREA)
      // "Walsall Council (Metropolitan Borough of Walsall), s.65 ..." is shown as "Walsall Council".
      .map((id) => ({ id, name: book.area(id)!.authority.split(/[,(]/)[0]!.trim() }))
      .sort((a, b) => a.name.localeCompare(b.name, 'en-GB'))
  );
}

export function isHomeArea(id: string): boolean {
  return id === NATIONAL_DEFAULT_AREA || defaultPricingData().tariffs.area(id) !== undefined;
}
