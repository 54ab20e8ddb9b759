// Codes as the words a driver or passenger reads, shared by the server's pages (src/pages/format.ts)
// and the pages' scripts, so a page and the app never say the same thing two ways. Pure: no DOM.

export { passengerNeeds } from '../../model/needs.js';

const VEHICLES: Record<string, string> = {
  saloon: 'Saloon (up to 4)',
  estate: 'Estate (up to 4)',
  executive: 'Executive (up to 4)',
  luxury: 'Luxury (up to 4)',
  '5seater': '5-seater',
  '6seater': '6-seater',
  '7seater': '7-seater',
  mpv: 'MPV (up to 8)',
  wav: 'Wheelchair accessible',
};

/** A vehicle class in words; a v1 booking's own name for one is shown as it came. */
export function vehicleLabel(type: string): string {
  return VEHICLES[type] ?? type;
}

/** What the job asks of the car, in words: "Saloon (up to 4)", or that a wheelchair user travels in their chair. */
export function vehicleNeeds(type: string, wheelchair: boolean): string {
  const name = vehicleLabel(type);
  if (!wheelchair) return name;
  return type === 'wav'
    ? 'Wheelchair accessible: the passenger travels in their wheelchair'
    : `${name}, wheelchair accessible: the passenger travels in their wheelchair`;
}

const TRIP: Record<string, string> = {
  scheduled: 'Booked ahead',
  dispatching: 'Finding a driver',
  offered: 'Offered',
  assigned: 'Yours: not started yet',
  en_route: 'On your way to the pickup',
  arrived: 'At the pickup',
  on_board: 'Passenger on board',
  completed: 'Completed',
  cancelled: 'Cancelled',
  no_show: 'The passenger did not come',
  unassigned: 'Waiting for a driver',
};

/** Where a driver's job stands, in words ("On your way to the pickup", not "en_route"). */
export function tripWords(status: string): string {
  return TRIP[status] ?? status.replace(/_/g, ' ');
}
