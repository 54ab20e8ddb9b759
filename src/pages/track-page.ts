import { DateTime } from 'luxon';
import { placeForPeople } from '../model/places.js';
import { z } from 'zod';
import type { BookingWithDriver } from '../bookings/store.js';
import { carDescription, firstName, formatRegistration } from '../notify/car.js';
import { providerWords } from '../notify/templates.js';
import type { DriverCar } from '../drivers/store.js';
import { haversineMeters } from '../geo/haversine.js';
import { precisionNote, precisionOf } from '../geo/precision.js';
import { searchEndsAt, TERMINAL_STATUSES, type BookingStatus } from '../model/bookings.js';
import { payOptions } from '../settlement/payment-options.js';
import { PAYMENT_STATES, paymentState, type PaymentState } from '../settlement/payment-state.js';
import type { DriverPosition } from './driver-position-store.js';
import { html } from './escape-html.js';
import { pickupEtaMinutes, type LatLon } from '../geo/pickup-eta.js';
import { londonDateTime, vehicleLabel } from './format.js';
import { layout, messagePage, type Page } from './layout.js';
import { driverWhereText } from './browser/driver-where.js';
import { creditParts, LEAFLET_CSS, LEAFLET_JS, tileImageSource } from './map-assets.js';
import { pageScript } from './page-scripts.js';

// The passenger's tracking page (the booking's status_url). It is reachable by anyone holding the
// reference, so it shows the journey and who is coming, never the passenger's own contact details;
// while the driver is coming, where they last said they were: in words (the street or area, how far,
// how long), and, when the operator configured a tile source (MAP_TILE_URL), on a map (Leaflet,
// src/pages/map-assets.ts). Without tiles there is no map at all, never a blank box.
// Its script, which keeps it current: src/pages/browser/track.ts.

const WORDING: Record<BookingStatus, { headline: string; detail: string }> = {
  awaiting_confirmation: {
    headline: 'Confirm your email',
    detail: 'We have emailed you a link. Open it to confirm this booking; we look for a driver once it is confirmed.',
  },
  scheduled: {
    headline: 'Booked',
    detail: 'We will find your driver shortly before pickup and text you their details.',
  },
  dispatching: { headline: 'Finding your driver', detail: 'We are contacting licensed drivers near your pickup.' },
  offered: { headline: 'Finding your driver', detail: 'A driver near your pickup is looking at your job now.' },
  assigned: {
    headline: 'Driver confirmed',
    detail: 'Your driver has accepted and will pick you up at the time below.',
  },
  en_route: { headline: 'Your driver is on the way', detail: 'Your driver is heading to the pickup.' },
  arrived: { headline: 'Your driver is here', detail: 'Your driver is waiting at the pickup.' },
  on_board: { headline: 'On your way', detail: 'Enjoy your journey.' },
  completed: { headline: 'Journey complete', detail: 'Thank you for travelling with Direct Taxi.' },
  cancelled: { headline: 'Cancelled', detail: 'This booking has been cancelled. Nothing is due.' },
  no_show: {
    headline: 'Marked as a no-show',
    detail: 'Your driver waited at the pickup and could not find you. Nothing is due.',
  },
  // Said with the time the search ends (unassignedWords).
  unassigned: { headline: 'Still looking for a driver', detail: '' },
};

/** Nobody has taken the job: until when the search goes on, or that it is over (model.searchEndsAt). */
function unassignedWords(row: BookingWithDriver, now: Date): { headline: string; detail: string; over: boolean } {
  const ends = new Date(searchEndsAt(row.pickup_at.toISOString()));
  if (now >= ends)
    return {
      headline: 'No driver found',
      detail: 'Sorry, no driver could take this booking. It is closed and nothing is due.',
      over: true,
    };
  const until = DateTime.fromJSDate(ends, { zone: 'Europe/London' }).toFormat('HH:mm');
  return {
    headline: 'Still looking for a driver',
    detail: `No driver has accepted yet. We keep asking drivers until ${until} and will text you as soon as one does. You can cancel free at any time.`,
    over: false,
  };
}

const SHOWS_DRIVER: ReadonlySet<BookingStatus> = new Set(['assigned', 'en_route', 'arrived', 'on_board', 'completed']);
/**
 * Where the driver is, only while they are coming to the passenger: never before a driver has the
 * job, and never once the passenger is on board (the trip is not to be followed by a stranger
 * holding the link) or the booking is over.
 */
const SHOWS_POSITION: ReadonlySet<BookingStatus> = new Set(['assigned', 'en_route', 'arrived']);
/** Once arrived there is nothing left to estimate. */
const SHOWS_ETA: ReadonlySet<BookingStatus> = new Set(['assigned', 'en_route']);
/** Statuses after which the driver's card cannot appear again: the page does not load Leaflet. */
const MAP_OVER: ReadonlySet<BookingStatus> = new Set(['on_board', 'completed', 'cancelled', 'no_show']);
/** An older report says where the app last was, not where the car is (as dispatch: a fresh location). */
const FRESH_POSITION_MS = 10 * 60_000;
/** About 10 m: enough for a map, no more than the car's own GPS is worth. */
const roundCoord = (x: number) => Math.round(x * 1e4) / 1e4;
/** The passenger may still cancel: until they are on board (the booking's own rule, cancelRefusal). */
const cancellable = (status: string) =>
  status !== 'on_board' && !(TERMINAL_STATUSES as readonly string[]).includes(status);
/** Nothing more will change: closed, and a completed trip once it is settled. */
const isFinal = (row: BookingWithDriver) =>
  row.status === 'cancelled' || row.status === 'no_show' || (row.status === 'completed' && row.paid_pence !== null);

const PAYMENT_WORDING: Record<PaymentState, string> = {
  pay_driver_on_completion: 'You pay the driver directly at the end of the journey.',
  awaiting_settlement: 'Pay your driver now, if you have not already.',
  paid: 'Paid. Thank you.',
  not_due: 'Nothing to pay.',
};

/** The polled JSON: exactly what the page shows, so the endpoint can never leak more than the page. */
export const TrackStatus = z.object({
  booking_reference: z.string(),
  status: z.string(),
  headline: z.string(),
  detail: z.string(),
  /** No further changes to poll for. */
  final: z.boolean(),
  pickup_time: z.string().describe('Europe/London, for display'),
  pickup: z.string(),
  /** Said when the pickup is only approximate (a town centre, a postcode area). */
  pickup_note: z.string().nullable(),
  dropoff: z.string(),
  /**
   * Who is coming and the car to look for: the driver's first name only, the car with its colour,
   * and its registration; when no registration is on file, the council licence (plate) number,
   * labelled as such, instead.
   */
  driver: z
    .object({
      name: z.string(),
      vehicle: z.string(),
      registration: z.string().nullable(),
      council_licence: z.string().nullable(),
    })
    .nullable(),
  /** Another licensed operator providing the ride (a sub-contract), and its licence; null for our own drivers. */
  provided_by: z.string().nullable(),
  fare: z.string().describe('GBP, e.g. "£12.40": the fare in force'),
  /** Set while the driver who took the job charges their own approved rate, below the quoted fare. */
  fare_note: z.string().nullable(),
  payment: z.object({ state: z.enum(PAYMENT_STATES), detail: z.string() }),
  /** How the assigned driver takes payment; empty until a driver accepts and once paid. */
  pay_options: z.array(
    z.object({ kind: z.string(), label: z.string(), detail: z.string(), href: z.string().nullable() }),
  ),
  /** The assigned driver's last reported position, to 4 decimals, while they are on their way or waiting. */
  driver_position: z.object({ lat: z.number(), lon: z.number(), at: z.string().describe('ISO 8601') }).nullable(),
  /** Rough minutes from the driver's position to the pickup (src/pages/eta.ts); null once arrived. */
  eta_minutes: z.number().int().nullable(),
  /** The street, suburb or town the driver is near, in words (src/geo/nearest-place.ts); null when none is named or no position is shown. */
  driver_near: z.string().nullable(),
  /** Straight-line metres from the driver to the pickup, to the nearest 10; null when no position is shown. */
  driver_distance_m: z.number().int().nullable(),
});
export type TrackStatus = z.infer<typeof TrackStatus>;

/** Whether the page may show where this booking's driver is (so whether to read it at all). */
export const showsDriverPosition = (row: BookingWithDriver): boolean =>
  row.driver_id !== null && SHOWS_POSITION.has(row.status);

/** The driver's position as the route read it, and the time to judge its age by. */
export interface LiveDriver {
  position: DriverPosition | null;
  now: Date;
  /** Our driver's car as the drivers table has it; absent for an exchange fleet's driver. */
  car?: DriverCar | null;
  /** Names where a point is (NearestPlace.near, src/geo/nearest-place.ts); absent: nothing named. */
  near?: (at: LatLon) => string | null;
  /** Minutes to the pickup already routed (on the driver's own map key); absent: the estimate. */
  etaMinutes?: number;
}

/** The driver as the passenger is told of them, from our driver's row or the booking's (exchange) driver. */
function driverFacts(
  row: BookingWithDriver,
  car: DriverCar | null | undefined,
): NonNullable<TrackStatus['driver']> | null {
  const name = firstName(car?.name ?? row.d_name);
  if (!name) return null;
  const fallback = vehicleLabel(row.vehicle_type);
  const registration = formatRegistration(car?.vehicle_registration);
  const licence = (car ? car.plate : row.d_plate)?.trim() || null;
  return {
    name,
    vehicle: car ? carDescription(car, fallback) : row.d_vehicle || fallback,
    registration,
    council_licence: registration ? null : licence,
  };
}

/** The label and value of the car's plate line: the registration, or failing it the council licence number. */
function plateLine(d: NonNullable<TrackStatus['driver']> | null): { label: string; value: string } {
  if (d?.registration) return { label: 'Registration', value: d.registration };
  return { label: 'Council licence no.', value: d?.council_licence ?? 'Not on file' };
}

/** The driver's position if the page may show it: a status that shows it, and a fresh report. */
function shownPosition(row: BookingWithDriver, live: LiveDriver): DriverPosition | null {
  const p = live.position;
  return showsDriverPosition(row) && p && live.now.getTime() - p.at.getTime() < FRESH_POSITION_MS ? p : null;
}

/**
 * Where the driver is, when the page would give minutes to the pickup from there (so when an ETA
 * is worth routing at all); null otherwise.
 */
export function etaFrom(row: BookingWithDriver, live: LiveDriver): DriverPosition | null {
  if (!SHOWS_ETA.has(row.status) || !(SHOWS_DRIVER.has(row.status) && row.d_name)) return null;
  return driverFacts(row, live.car) ? shownPosition(row, live) : null;
}

export function trackStatus(
  row: BookingWithDriver,
  live: LiveDriver = { position: null, now: new Date() },
): TrackStatus {
  const unassigned = row.status === 'unassigned' ? unassignedWords(row, live.now) : null;
  const words = unassigned ?? WORDING[row.status] ?? { headline: row.status.replace(/_/g, ' '), detail: '' };
  const driver = SHOWS_DRIVER.has(row.status) && row.d_name ? driverFacts(row, live.car) : null;
  const state = paymentState(row);
  const position = driver ? shownPosition(row, live) : null;
  const shown = position && { lat: roundCoord(position.lat), lon: roundCoord(position.lon) };
  return {
    booking_reference: row.ref,
    status: row.status,
    headline: words.headline,
    detail: words.detail,
    final: isFinal(row) || unassigned?.over === true,
    pickup_time: londonDateTime(row.pickup_at),
    pickup: placeForPeople(row.pickup_query, row.pickup),
    pickup_note: precisionNote(precisionOf(row.pickup)),
    dropoff: placeForPeople(row.dropoff_query, row.dropoff),
    driver,
    provided_by: row.provider_name
      ? providerWords({ name: row.provider_name, licence: row.provider_licence ?? null })
      : null,
    fare: formatPounds(row.fare_pence),
    fare_note:
      row.quoted_fare_pence != null && row.fare_pence < row.quoted_fare_pence
        ? `Your driver's own approved rate, below the ${formatPounds(row.quoted_fare_pence)} quoted.`
        : null,
    payment: {
      state,
      detail:
        state === 'paid' && row.paid_pence !== null
          ? `Paid ${formatPounds(row.paid_pence)} (${(row.paid_method ?? '').replace(/_/g, ' ')}). Thank you.`
          : PAYMENT_WORDING[state],
    },
    pay_options: driver && state !== 'paid' && state !== 'not_due' ? payOptions(row.d_payment_options, row.ref) : [],
    driver_position: position && shown && { ...shown, at: position.at.toISOString() },
    eta_minutes:
      position && SHOWS_ETA.has(row.status) ? (live.etaMinutes ?? pickupEtaMinutes(position, row.pickup)) : null,
    driver_near: shown ? (live.near?.(shown) ?? null) : null,
    driver_distance_m: shown
      ? Math.round(haversineMeters(shown.lat, shown.lon, row.pickup.lat, row.pickup.lon) / 10) * 10
      : null,
  };
}

function formatPounds(pence: number): string {
  return `£${(pence / 100).toFixed(2)}`;
}

/**
 * What the map needs besides the status: where the pickup is, the tiles (MAP_TILE_URL; empty for
 * none, and then no map) and the credit their provider requires (MAP_TILE_ATTRIBUTION).
 */
export interface TrackMap {
  pickup: LatLon;
  tileUrl: string;
  attribution: string;
}

/** The tile provider's credit, its links opening their terms in a new tab. */
function mapCredit(attribution: string) {
  return creditParts(attribution).map((part) =>
    part.href ? html`<a href="${part.href}" rel="noopener noreferrer" target="_blank">${part.text}</a>` : part.text,
  );
}

function mapCard(s: TrackStatus, m: TrackMap) {
  const p = s.driver_position;
  const tiles = tileImageSource(m.tileUrl) ? m.tileUrl : '';
  // The words first, with or without a map (the script says the same: driverWhereText).
  return html`<div class="card" id="map-card"${!p && html` hidden`}>
<h2>Where your driver is</h2>
<p class="eta" data-field="eta">${driverWhereText(s)}</p>
${
  tiles &&
  html`<div class="map" id="map" role="region" aria-label="Map of your driver and your pickup" data-pickup-lat="${roundCoord(m.pickup.lat)}" data-pickup-lon="${roundCoord(m.pickup.lon)}" data-tile-url="${tiles}"${p && html` data-driver-lat="${p.lat}" data-driver-lon="${p.lon}"`}></div>
<p class="map-credit" id="map-credit">Map: ${mapCredit(m.attribution)}</p>
<ul class="legend"><li><span class="dot driver" aria-hidden="true"></span>Your driver</li><li><span class="dot pickup" aria-hidden="true"></span>Pickup</li></ul>`
}
</div>`;
}

export function renderTrackPage(s: TrackStatus, map: TrackMap): Page {
  const d = s.driver;
  const plate = plateLine(d);
  const withCard = !MAP_OVER.has(s.status as BookingStatus);
  const tiles = tileImageSource(map.tileUrl);
  const body = html`<div class="card" id="track" data-ref="${s.booking_reference}" data-status="${s.status}" data-payment="${s.payment.state}" data-final="${String(s.final)}">
<p class="muted">Booking <strong>${s.booking_reference}</strong></p>
<p class="status" data-field="headline" role="status" aria-live="polite">${s.headline}</p>
<p class="muted" data-field="detail">${s.detail}</p>
</div>
${withCard && mapCard(s, map)}
<div class="card" id="driver"${!d && html` hidden`}>
<h2>Look out for</h2>
<dl class="facts">
  <dt>Your driver</dt><dd data-field="driver_name">${d?.name}</dd>
  <dt>Car</dt><dd data-field="driver_vehicle">${d?.vehicle}</dd>
  <dt data-field="driver_plate_label">${plate.label}</dt><dd><span class="plate" data-field="driver_plate">${plate.value}</span></dd>
</dl>
</div>
<div class="card" id="pay"${s.payment.state === 'not_due' && html` hidden`}>
<h2>Pay the driver</h2>
<p class="fare"><span data-field="fare">${s.fare}</span></p>
<p class="muted" data-field="fare_note">${s.fare_note}</p>
<p data-field="payment_detail">${s.payment.detail}</p>
<ul class="pay-options" id="pay-options" data-rendered="${JSON.stringify(s.pay_options)}">${s.pay_options.map(
    (o) =>
      html`<li><strong>${o.label}</strong> ${o.href ? html`<a href="${o.href}" rel="noopener noreferrer" target="_blank">${o.detail}</a>` : html`<span>${o.detail}</span>`}</li>`,
  )}</ul>
<p class="hint">No commission: the whole fare goes to your driver.</p>
</div>
<div class="card">
<h2>Journey</h2>
<dl class="facts">
  <dt>Pickup</dt><dd data-field="pickup_time">${s.pickup_time}</dd>
  <dt>From</dt><dd data-field="pickup">${s.pickup}</dd>
  ${s.pickup_note && html`<dt>Note</dt><dd>Your pickup is ${s.pickup_note}. Your driver may call you for the exact place.</dd>`}
  <dt>To</dt><dd data-field="dropoff">${s.dropoff}</dd>
  ${s.provided_by && html`<dt>Provided by</dt><dd data-field="provided_by">${s.provided_by}</dd>`}
</dl>
</div>
<div class="card" id="manage-link"${(!cancellable(s.status) || s.final) && html` hidden`}>
<h2>Change of plans?</h2>
<form method="post" action="/track/${s.booking_reference}/manage-link">
<label for="manage-mobile">To cancel it, we text a link to the mobile number on this booking. Your mobile number</label>
<input id="manage-mobile" name="mobile" type="tel" inputmode="tel" autocomplete="tel" maxlength="40" required placeholder="07400 123456">
<button type="submit">Text me a link</button>
</form>
</div>
<div class="card" id="manage" hidden>
<h2>Change of plans?</h2>
<p class="muted">You can cancel until your driver has picked you up. Your driver is told at once.</p>
<button type="button" class="decline" id="cancel" aria-expanded="false" aria-controls="cancel-confirm">Cancel this booking</button>
<div id="cancel-confirm" hidden>
<p><strong>Cancel booking ${s.booking_reference}?</strong></p>
<div class="actions"><button type="button" id="cancel-yes">Yes, cancel it</button><button type="button" class="decline" id="cancel-no">Keep it</button></div>
</div>
<p class="field-error" id="cancel-error" role="alert"></p>
</div>
<p class="hint" id="live"${s.final && html` hidden`}>This page updates by itself.</p>`;
  // Leaflet only for a map with tiles: without them the card is words alone. Leaflet cancels a tile
  // it no longer needs by pointing it at an inline empty GIF, hence data: (images only).
  const extras =
    withCard && tiles ? { stylesheets: [LEAFLET_CSS], scripts: [LEAFLET_JS], imgSrc: [tiles, 'data:'] } : {};
  return layout({ title: `Booking ${s.booking_reference}`, body, script: pageScript('track'), extras });
}

export function bookingNotFoundPage(): Page {
  return messagePage(
    404,
    'Booking not found',
    html`<p>There is no booking with this reference. Check the link you were sent.</p>`,
  );
}
