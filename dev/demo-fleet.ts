// A demo fleet around the main UK cities, so a newcomer can book a ride and watch the cascade go
// local -> national -> partner, with a few drivers who are skipped for a visible reason. Pure data:
// `seedFleet` writes it, tests reuse it. Phone numbers are in Ofcom's drama range
// (+44 7700 900000-900999), which is never allocated, so nothing real is ever texted; plates
// say DEMO, and registrations start ZZ (Z is no DVLA memory tag's letter), so no real car is named.
import type { VehicleType } from '../src/pricing/types.js';
import { SEATS } from '../src/quotes/vehicle-choice.js';
import type { DriverSnapshot } from '../src/dispatch/policy.js';
import type { Tier } from '../src/model/bookings.js';

export interface DemoFleet {
  id: string;
  name: string;
  approved: boolean;
  /**
   * Its private hire operator licence, put on file valid a year from each seeding: without one a
   * fleet is given none of our bookings (docs/records.md, "Sub-contracting"). Null: none on file.
   */
  licence: { authority: string; number: string } | null;
}

export interface DemoDriver {
  id: string;
  name: string;
  /** E.164. */
  phone: string;
  /** E.164; null means the phone number is also the WhatsApp number. */
  whatsapp: string | null;
  tier: Tier;
  homeArea: string | null;
  partnerFleetId: string | null;
  approved: boolean;
  online: boolean;
  vehicleType: VehicleType;
  vehicleDescription: string;
  /** Make, model and colour as a passenger looks for the car (the tracking page, issue 23). */
  vehicleMake: string;
  vehicleModel: string;
  vehicleColour: string;
  /** As on the number plate; `plate` is the council licence number. */
  vehicleRegistration: string;
  plate: string;
  seats: number;
  wheelchairAccessible: boolean;
  lat: number;
  lon: number;
}

export interface DemoCity {
  name: string;
  /** Tariff area id (data/tariffs), the home area of the city's local drivers. */
  areaId: string;
  /** The middle of its local drivers' ids, e.g. 'man' in drv-man-01. */
  code: string;
  lat: number;
  lon: number;
}

/** Centres the local drivers are placed around; also handy pickups for a demo booking. */
export const DEMO_CITIES = {
  manchester: {
    name: 'Manchester (Piccadilly Gardens)',
    areaId: 'manchester',
    code: 'man',
    lat: 53.4808,
    lon: -2.2426,
  },
  london: { name: 'London (Trafalgar Square)', areaId: 'london-tfl', code: 'lon', lat: 51.508, lon: -0.1281 },
  glasgow: { name: 'Glasgow (George Square)', areaId: 'glasgow', code: 'gla', lat: 55.8611, lon: -4.2502 },
  birmingham: { name: 'Birmingham (Victoria Square)', areaId: 'birmingham', code: 'bir', lat: 52.4797, lon: -1.9027 },
  edinburgh: { name: 'Edinburgh (Waverley)', areaId: 'edinburgh', code: 'edi', lat: 55.952, lon: -3.1895 },
  // Bristol itself has no tariff in data/tariffs; its northern fringe (Filton, Stoke Gifford,
  // Bristol Parkway) is South Gloucestershire, which does.
  bristol: {
    name: 'Bristol north (Bristol Parkway, South Gloucestershire)',
    areaId: 'south-gloucestershire',
    code: 'bri',
    lat: 51.5138,
    lon: -2.5427,
  },
} as const satisfies Record<string, DemoCity>;

export const DEMO_PARTNER_FLEET_ID = 'demo-partner-fleet';
export const DEMO_UNAPPROVED_FLEET_ID = 'demo-unapproved-fleet';

export const DEMO_FLEETS: readonly DemoFleet[] = [
  {
    id: DEMO_PARTNER_FLEET_ID,
    name: 'Demo Partner Cars (approved partner fleet)',
    approved: true,
    licence: { authority: 'Trafford Council', number: 'DEMO-PHO-0001' },
  },
  { id: DEMO_UNAPPROVED_FLEET_ID, name: 'Unvetted Cabs (demo: fleet not approved)', approved: false, licence: null },
];

const phone = (n: number): string => `+447700900${String(n).padStart(3, '0')}`;

// Seats come from the class, so a demo driver can never disagree with what quotes promise.
function vehicle(
  vehicleType: VehicleType,
  vehicleDescription: string,
  looks: { make: string; model: string; colour: string },
) {
  return {
    vehicleType,
    vehicleDescription,
    vehicleMake: looks.make,
    vehicleModel: looks.model,
    vehicleColour: looks.colour,
    seats: SEATS[vehicleType],
    wheelchairAccessible: vehicleType === 'wav',
  };
}

/** A registration no real car has: ZZ, the driver's number and their city's (or network's) code. */
const registration = (nn: string, code: string): string => `ZZ${nn} ${code.toUpperCase()}`;

const defaults = { whatsapp: null, approved: true, online: true } as const;

function local(
  city: DemoCity,
  n: number,
  name: string,
  car: ReturnType<typeof vehicle>,
  dLat: number,
  dLon: number,
  phoneNo: number,
  over: Partial<DemoDriver> = {},
): DemoDriver {
  const nn = String(n).padStart(2, '0');
  return {
    ...defaults,
    id: `drv-${city.code}-${nn}`,
    name,
    ...car,
    lat: round5(city.lat + dLat),
    lon: round5(city.lon + dLon),
    phone: phone(phoneNo),
    tier: 'local',
    homeArea: city.areaId,
    partnerFleetId: null,
    plate: `DEMO ${city.code.toUpperCase()}${nn}`,
    vehicleRegistration: registration(nn, city.code),
    ...over,
  };
}

function networked(
  tier: 'national' | 'partner',
  id: string,
  name: string,
  car: ReturnType<typeof vehicle>,
  where: { lat: number; lon: number },
  phoneNo: number,
  over: Partial<DemoDriver> = {},
): DemoDriver {
  const partnerFleetId = tier === 'partner' ? DEMO_PARTNER_FLEET_ID : null;
  const plate = `DEMO ${id.slice(4).replace('-', '').toUpperCase()}`;
  const vehicleRegistration = registration(id.slice(-2), id.slice(4, 7));
  return {
    ...defaults,
    id,
    name,
    ...car,
    ...where,
    phone: phone(phoneNo),
    tier,
    homeArea: null,
    partnerFleetId,
    plate,
    vehicleRegistration,
    ...over,
  };
}

const round5 = (x: number): number => Math.round(x * 1e5) / 1e5;

const { manchester: MAN, london: LON, glasgow: GLA, birmingham: BIR, edinburgh: EDI, bristol: BRI } = DEMO_CITIES;

// Offsets are a few hundred metres to ~3 km (0.01 degree of latitude is ~1.1 km), so each city's
// locals are all within the local tier's reach of its centre but at different distances.
const LOCAL_DRIVERS: DemoDriver[] = [
  local(
    MAN,
    1,
    'Aisha Khan',
    vehicle('saloon', 'Toyota Corolla Hybrid, silver', { make: 'Toyota', model: 'Corolla Hybrid', colour: 'silver' }),
    0.004,
    0.006,
    101,
  ),
  local(
    MAN,
    2,
    'Tom Whitworth',
    vehicle('estate', 'Skoda Octavia Estate, grey', { make: 'Skoda', model: 'Octavia Estate', colour: 'grey' }),
    -0.012,
    0.01,
    102,
  ),
  local(
    MAN,
    3,
    'Grace Okafor',
    vehicle('mpv', 'Mercedes-Benz Vito Tourer, black', {
      make: 'Mercedes-Benz',
      model: 'Vito Tourer',
      colour: 'black',
    }),
    0.018,
    -0.015,
    103,
  ),
  local(
    MAN,
    4,
    'Danny Byrne',
    vehicle('wav', 'LEVC TX wheelchair-accessible cab, black', { make: 'LEVC', model: 'TX', colour: 'black' }),
    -0.006,
    -0.008,
    104,
  ),
  local(
    MAN,
    5,
    'Priya Shah',
    vehicle('executive', 'Mercedes-Benz E-Class, black', { make: 'Mercedes-Benz', model: 'E-Class', colour: 'black' }),
    0.009,
    0.02,
    105,
  ),
  // Shows `not_approved`: a registered driver the operator has not yet approved.
  local(
    MAN,
    6,
    'Unapproved Ulrich',
    vehicle('saloon', 'Kia Niro, white', { make: 'Kia', model: 'Niro', colour: 'white' }),
    0.002,
    -0.003,
    106,
    { approved: false },
  ),

  local(
    LON,
    1,
    'Sean Murphy',
    vehicle('wav', 'LEVC TX black cab', { make: 'LEVC', model: 'TX', colour: 'black' }),
    0.003,
    0.004,
    111,
  ),
  local(
    LON,
    2,
    'Fatima Begum',
    vehicle('saloon', 'Toyota Prius, blue', { make: 'Toyota', model: 'Prius', colour: 'blue' }),
    -0.01,
    0.012,
    112,
  ),
  local(
    LON,
    3,
    'James Holloway',
    vehicle('executive', 'BMW 5 Series, black', { make: 'BMW', model: '5 Series', colour: 'black' }),
    0.014,
    -0.01,
    113,
  ),
  local(
    LON,
    4,
    'Olivia Grant',
    vehicle('luxury', 'Mercedes-Benz S-Class, black', { make: 'Mercedes-Benz', model: 'S-Class', colour: 'black' }),
    -0.005,
    -0.02,
    114,
  ),
  local(
    LON,
    5,
    'Kwame Mensah',
    vehicle('7seater', 'Ford Galaxy, grey', { make: 'Ford', model: 'Galaxy', colour: 'grey' }),
    0.02,
    0.015,
    115,
  ),

  local(
    GLA,
    1,
    'Callum McLeod',
    vehicle('saloon', 'Skoda Octavia, white', { make: 'Skoda', model: 'Octavia', colour: 'white' }),
    0.005,
    0.007,
    121,
  ),
  local(
    GLA,
    2,
    'Morag Campbell',
    vehicle('wav', 'Peugeot E-7 wheelchair-accessible cab', { make: 'Peugeot', model: 'E-7', colour: 'white' }),
    -0.004,
    -0.01,
    122,
  ),
  local(
    GLA,
    3,
    'Ravi Patel',
    vehicle('6seater', 'Volkswagen Caddy Maxi Life, six seats', {
      make: 'Volkswagen',
      model: 'Caddy Maxi Life',
      colour: 'silver',
    }),
    0.015,
    -0.018,
    123,
  ),
  local(
    GLA,
    4,
    'Ewan Fraser',
    vehicle('estate', 'Volvo V60, dark blue', { make: 'Volvo', model: 'V60', colour: 'dark blue' }),
    -0.016,
    0.012,
    124,
  ),

  local(
    BIR,
    1,
    'Imran Hussain',
    vehicle('saloon', 'Toyota Corolla, grey', { make: 'Toyota', model: 'Corolla', colour: 'grey' }),
    0.006,
    -0.004,
    131,
  ),
  local(
    BIR,
    2,
    'Sophie Turner',
    vehicle('5seater', 'Skoda Enyaq, five seats', { make: 'Skoda', model: 'Enyaq', colour: 'grey' }),
    -0.009,
    0.011,
    132,
  ),
  local(
    BIR,
    3,
    'Delroy Campbell',
    vehicle('wav', 'LEVC TX wheelchair-accessible cab', { make: 'LEVC', model: 'TX', colour: 'black' }),
    0.012,
    0.016,
    133,
  ),
  local(
    BIR,
    4,
    'Harjit Singh',
    vehicle('mpv', 'Volkswagen Caravelle, eight seats', { make: 'Volkswagen', model: 'Caravelle', colour: 'blue' }),
    -0.017,
    -0.014,
    134,
  ),

  local(
    EDI,
    1,
    'Fiona Stewart',
    vehicle('saloon', 'Hyundai Ioniq, white', { make: 'Hyundai', model: 'Ioniq', colour: 'white' }),
    0.004,
    -0.006,
    141,
  ),
  local(
    EDI,
    2,
    'Alasdair Reid',
    vehicle('executive', 'Mercedes-Benz E-Class, silver', {
      make: 'Mercedes-Benz',
      model: 'E-Class',
      colour: 'silver',
    }),
    -0.008,
    0.012,
    142,
  ),
  local(
    EDI,
    3,
    'Niamh Doyle',
    vehicle('wav', 'LEVC TX wheelchair-accessible cab', { make: 'LEVC', model: 'TX', colour: 'black' }),
    0.011,
    0.009,
    143,
  ),
  local(
    EDI,
    4,
    'Marek Nowak',
    vehicle('7seater', 'Peugeot 5008, seven seats', { make: 'Peugeot', model: '5008', colour: 'white' }),
    -0.014,
    -0.016,
    144,
  ),

  local(
    BRI,
    1,
    'Owen Price',
    vehicle('saloon', 'Toyota Corolla, red', { make: 'Toyota', model: 'Corolla', colour: 'red' }),
    0.003,
    0.005,
    151,
  ),
  local(
    BRI,
    2,
    'Hannah Lewis',
    vehicle('estate', 'Skoda Superb Estate, black', { make: 'Skoda', model: 'Superb Estate', colour: 'black' }),
    -0.004,
    -0.035,
    152,
  ), // Filton
  local(
    BRI,
    3,
    'Yusuf Ali',
    vehicle('wav', 'Peugeot E-7 wheelchair-accessible cab', { make: 'Peugeot', model: 'E-7', colour: 'silver' }),
    0.012,
    -0.01,
    153,
  ),
  local(
    BRI,
    4,
    'Chloe Evans',
    vehicle('6seater', 'Citroen Berlingo XL, six seats', { make: 'Citroen', model: 'Berlingo XL', colour: 'grey' }),
    -0.01,
    0.014,
    154,
  ),
];

// National network drivers sit between cities, 15-45 km from the nearest centre: beyond the local
// tier's 15 km but inside the national tier's 50 km, so each city can show a national offer.
const NATIONAL_DRIVERS: DemoDriver[] = [
  networked(
    'national',
    'drv-nat-01',
    'Lee Harrison',
    vehicle('saloon', 'Skoda Octavia, silver', { make: 'Skoda', model: 'Octavia', colour: 'silver' }),
    { lat: 53.39, lon: -2.597 },
    201,
  ), // Warrington: Manchester
  networked(
    'national',
    'drv-nat-02',
    'Bethany Clarke',
    vehicle('7seater', 'SEAT Alhambra, blue', { make: 'SEAT', model: 'Alhambra', colour: 'blue' }),
    { lat: 52.6816, lon: -1.8317 },
    202,
  ), // Lichfield: Birmingham
  networked(
    'national',
    'drv-nat-03',
    'Gregor Wallace',
    vehicle('executive', 'Audi A6, black', { make: 'Audi', model: 'A6', colour: 'black' }),
    { lat: 55.8865, lon: -3.523 },
    203,
  ), // Livingston: Edinburgh and Glasgow
  networked(
    'national',
    'drv-nat-04',
    'Rhys Morgan',
    vehicle('estate', 'Ford Mondeo Estate, grey', { make: 'Ford', model: 'Mondeo Estate', colour: 'grey' }),
    { lat: 51.5842, lon: -2.9977 },
    204,
  ), // Newport: Bristol
  networked(
    'national',
    'drv-nat-05',
    'Amara Nwosu',
    vehicle('mpv', 'Mercedes-Benz V-Class, black', { make: 'Mercedes-Benz', model: 'V-Class', colour: 'black' }),
    { lat: 51.6565, lon: -0.3903 },
    205,
  ), // Watford: London
  networked(
    'national',
    'drv-nat-06',
    'Stuart Bell',
    vehicle('6seater', 'Ford Tourneo Connect, six seats', { make: 'Ford', model: 'Tourneo Connect', colour: 'red' }),
    { lat: 55.7772, lon: -4.0538 },
    206,
  ), // Hamilton: Glasgow
];

// The approved partner fleet covers each city from its outskirts; the unapproved one has a single
// driver in Manchester who is always passed over with `fleet_not_approved`.
const PARTNER_DRIVERS: DemoDriver[] = [
  networked(
    'partner',
    'drv-dpf-01',
    'Kevin Walsh',
    vehicle('mpv', 'Ford Transit Custom Tourneo, eight seats', {
      make: 'Ford',
      model: 'Transit Custom Tourneo',
      colour: 'white',
    }),
    { lat: 53.4106, lon: -2.1575 },
    301,
  ), // Stockport
  networked(
    'partner',
    'drv-dpf-02',
    'Zara Ahmed',
    vehicle('saloon', 'Toyota Camry, black', { make: 'Toyota', model: 'Camry', colour: 'black' }),
    { lat: 51.3762, lon: -0.0982 },
    302,
  ), // Croydon
  networked(
    'partner',
    'drv-dpf-03',
    'Iain Ross',
    vehicle('wav', 'LEVC TX wheelchair-accessible cab', { make: 'LEVC', model: 'TX', colour: 'black' }),
    { lat: 55.8456, lon: -4.4239 },
    303,
  ), // Paisley
  networked(
    'partner',
    'drv-dpf-04',
    'Nadia Rahman',
    vehicle('executive', 'Mercedes-Benz E-Class, grey', { make: 'Mercedes-Benz', model: 'E-Class', colour: 'grey' }),
    { lat: 52.4118, lon: -1.7776 },
    304,
  ), // Solihull
  networked(
    'partner',
    'drv-dpf-05',
    'Duncan Moffat',
    vehicle('estate', 'Volvo V90, silver', { make: 'Volvo', model: 'V90', colour: 'silver' }),
    { lat: 55.9419, lon: -3.054 },
    305,
  ), // Musselburgh
  networked(
    'partner',
    'drv-dpf-06',
    'Megan Hughes',
    vehicle('7seater', 'Kia Sorento, seven seats', { make: 'Kia', model: 'Sorento', colour: 'blue' }),
    { lat: 51.5246, lon: -2.5966 },
    306,
  ), // Cribbs Causeway
  networked(
    'partner',
    'drv-ufl-01',
    'Unvetted Victor',
    vehicle('saloon', 'Vauxhall Insignia, grey', { make: 'Vauxhall', model: 'Insignia', colour: 'grey' }),
    { lat: 53.4875, lon: -2.2901 },
    401,
    {
      partnerFleetId: DEMO_UNAPPROVED_FLEET_ID,
    },
  ), // Salford
];

export const DEMO_DRIVERS: readonly DemoDriver[] = [...LOCAL_DRIVERS, ...NATIONAL_DRIVERS, ...PARTNER_DRIVERS];

/** The demo fleet as the cascade sees it, with every location reported at `now` and no jobs. */
export function demoDriverSnapshots(now: Date): DriverSnapshot[] {
  const fleetApproved = new Map(DEMO_FLEETS.map((f) => [f.id, f.approved]));
  const yearOn = new Date(now.getTime() + 365 * 24 * 3600_000);
  const licensed = new Set(DEMO_FLEETS.filter((f) => f.licence).map((f) => f.id));
  return DEMO_DRIVERS.map((d) => ({
    id: d.id,
    name: d.name,
    tier: d.tier,
    homeArea: d.homeArea,
    partnerFleetId: d.partnerFleetId,
    partnerFleetApproved: d.partnerFleetId === null ? null : (fleetApproved.get(d.partnerFleetId) ?? false),
    fleetLicences:
      d.partnerFleetId === null ? null : { private_hire: licensed.has(d.partnerFleetId) ? yearOn : null, psv: null },
    approved: d.approved,
    online: d.online,
    vehicleType: d.vehicleType,
    seats: d.seats,
    wheelchairAccessible: d.wheelchairAccessible,
    lat: d.lat,
    lon: d.lon,
    locationAt: now,
    overlappingJobs: 0,
  }));
}
