// The passenger's tracking page (src/pages/track-page.ts): polls /track/:ref/status.json and sets
// what changed, says where the driver is, moves them on the map (Leaflet, loaded before this script
// when the operator configured tiles), and cancels with the manage token the booking page put in the fragment.
import { $, $button, replyJson, type Problem } from './dom.js';
import { driverWhereText } from './driver-where.js';
import { POLL_MS, pollDelay } from './poll.js';

/** What the page reads of the status (TrackStatus, src/pages/track-page.ts). */
interface TrackStatus {
  status: string;
  headline: string;
  detail: string;
  final: boolean;
  pickup_time: string;
  pickup: string;
  dropoff: string;
  driver: { name: string; vehicle: string; registration: string | null; council_licence: string | null } | null;
  fare: string;
  fare_note: string | null;
  payment: { state: string; detail: string };
  pay_options: { kind: string; label: string; detail: string; href: string | null }[];
  driver_position: { lat: number; lon: number; at: string } | null;
  eta_minutes: number | null;
  driver_near: string | null;
  driver_distance_m: number | null;
}

/** The little of Leaflet's API the map uses (the global L of /assets/leaflet.js). */
interface LatLngBounds {
  pad(ratio: number): LatLngBounds;
  contains(at: [number, number]): boolean;
}
interface LeafletMap {
  fitBounds(bounds: [number, number][], opts: { padding: [number, number]; maxZoom: number }): void;
  getBounds(): LatLngBounds;
  invalidateSize(): void;
}
interface Layer {
  addTo(map: LeafletMap): this;
}
interface CircleMarker extends Layer {
  setLatLng(at: [number, number]): void;
}
interface Leaflet {
  map(el: HTMLElement, opts: Record<string, unknown>): LeafletMap;
  tileLayer(url: string, opts: Record<string, unknown>): Layer;
  circleMarker(at: [number, number], opts: Record<string, unknown>): CircleMarker;
}
declare global {
  interface Window {
    L?: Leaflet;
  }
}

const CANCELLABLE = [
  'awaiting_confirmation',
  'scheduled',
  'dispatching',
  'offered',
  'assigned',
  'en_route',
  'arrived',
  'unassigned',
];

const root = $('track');
const live = $('live');
const driverCard = $('driver');
const mapCard = document.getElementById('map-card');
const mapEl = document.getElementById('map');
const ref = root.dataset.ref ?? '';
const url = `/track/${encodeURIComponent(ref)}/status.json`;

function set(name: string, value: string): void {
  for (const e of document.querySelectorAll(`[data-field="${name}"]`)) {
    if (e.textContent !== value) e.textContent = value;
  }
}

// The map exists only once there is a driver to show: no blank map while a driver is found.
let map: LeafletMap | null = null;
let driverMarker: CircleMarker | null = null;
const pickup: [number, number] | null = mapEl
  ? [Number(mapEl.dataset.pickupLat), Number(mapEl.dataset.pickupLon)]
  : null;
const dot = (colour: string, className: string) => ({
  radius: 9,
  color: '#fff',
  weight: 3,
  fillColor: colour,
  fillOpacity: 1,
  interactive: false,
  className,
});

function place(lat: number, lon: number): void {
  // Without Leaflet (it failed to load) the page still says how far away the driver is.
  const L = window.L;
  if (!L || !mapEl || !pickup) return;
  const at: [number, number] = [lat, lon];
  if (!map || !driverMarker) {
    const tiles = mapEl.dataset.tileUrl;
    // No animations: the marker is where the last poll said the moment the poll is applied. The
    // provider's credit is the page's own line under the map (MAP_TILE_ATTRIBUTION), not Leaflet's.
    map = L.map(mapEl, {
      attributionControl: false,
      zoomAnimation: false,
      fadeAnimation: false,
      markerZoomAnimation: false,
    });
    if (tiles) {
      L.tileLayer(tiles, {
        maxZoom: 19,
        // The page sends no Referer (its address opens the booking); tile servers want one, so the site alone.
        referrerPolicy: 'strict-origin',
      }).addTo(map);
    }
    // The view first: markers added to a map that has one are drawn at once, not on its first move.
    map.fitBounds([pickup, at], { padding: [40, 40], maxZoom: 16 });
    L.circleMarker(pickup, dot('#0b57d0', 'pickup-marker')).addTo(map);
    driverMarker = L.circleMarker(at, dot('#c5221f', 'driver-marker')).addTo(map);
  } else {
    driverMarker.setLatLng(at);
    if (!map.getBounds().pad(-0.1).contains(at)) map.fitBounds([pickup, at], { padding: [40, 40], maxZoom: 16 });
  }
  mapEl.dataset.driverLat = String(lat);
  mapEl.dataset.driverLon = String(lon);
}

function showPosition(s: TrackStatus): void {
  if (!mapCard) return;
  // The same words as the server's first paint (driverWhereText), map or no map.
  set('eta', driverWhereText(s));
  const p = s.driver_position;
  const wasHidden = mapCard.hidden;
  mapCard.hidden = !p;
  if (!p) return;
  // Leaflet measured the map while it was shown; a map shown again must measure itself again.
  if (map && wasHidden) map.invalidateSize();
  place(p.lat, p.lon);
}

// Cancelling is for whoever holds the booking: the page the booking page opens carries its manage
// token in the fragment (#t=...), which never leaves the browser but in the cancel request itself.
const token = new URLSearchParams(location.hash.slice(1)).get('t');
const manage = $('manage');
const cancelButton = $button('cancel');
const confirmBox = $('cancel-confirm');
const cancelError = $('cancel-error');

// Without the token ("Find my booking"), the way to cancel is a link texted to the booking's mobile.
const manageLink = $('manage-link');
// A booking whose search ended without a driver is final though still 'unassigned': nothing to cancel.
const showManage = (status: string | undefined, final: boolean) => {
  const open = CANCELLABLE.includes(status ?? '') && !final;
  manage.hidden = !token || !open;
  manageLink.hidden = Boolean(token) || !open;
};
const askAgain = (open: boolean) => {
  confirmBox.hidden = !open;
  cancelButton.hidden = open;
  cancelButton.setAttribute('aria-expanded', String(open));
};

async function fetchStatus(): Promise<Response> {
  return fetch(url, { cache: 'no-store', headers: { accept: 'application/json' } });
}

async function cancel(button: HTMLButtonElement): Promise<void> {
  button.disabled = true;
  cancelError.textContent = '';
  try {
    const res = await fetch(`/api/public/v1/booking/${encodeURIComponent(ref)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'cancel', token, reason: 'Cancelled by the passenger on the tracking page' }),
    });
    if (!res.ok) {
      cancelError.textContent =
        (await replyJson<Problem>(res))?.detail || 'The booking could not be cancelled just now. Please try again.';
      return;
    }
    const status = await fetchStatus();
    if (status.ok) apply((await status.json()) as TrackStatus);
  } catch {
    cancelError.textContent = 'No connection: the booking is not cancelled yet. Please try again.';
  } finally {
    button.disabled = false;
  }
}

function payOption(o: TrackStatus['pay_options'][number]): HTMLElement {
  const item = document.createElement('li');
  const name = document.createElement('strong');
  name.textContent = o.label;
  let detail: HTMLElement;
  if (o.href) {
    const a = document.createElement('a');
    a.href = o.href;
    a.rel = 'noopener noreferrer';
    a.target = '_blank';
    detail = a;
  } else {
    detail = document.createElement('span');
  }
  detail.textContent = o.detail;
  item.append(name, ' ', detail);
  return item;
}

function apply(s: TrackStatus): void {
  showManage(s.status, s.final);
  if (s.final) live.hidden = true;
  set('headline', s.headline);
  set('detail', s.detail);
  set('pickup_time', s.pickup_time);
  set('pickup', s.pickup);
  set('dropoff', s.dropoff);
  if (s.driver) {
    set('driver_name', s.driver.name);
    set('driver_vehicle', s.driver.vehicle);
    // The same choice as plateLine: the registration, else the council licence number said to be one.
    set('driver_plate_label', s.driver.registration ? 'Registration' : 'Council licence no.');
    set('driver_plate', s.driver.registration || s.driver.council_licence || 'Not on file');
  }
  driverCard.hidden = !s.driver;
  showPosition(s);
  set('payment_detail', s.payment.detail);
  set('fare', s.fare);
  set('fare_note', s.fare_note || '');
  const options = $('pay-options');
  const rendered = JSON.stringify(s.pay_options);
  if (options.dataset.rendered !== rendered) {
    options.dataset.rendered = rendered;
    options.replaceChildren(...s.pay_options.map(payOption));
  }
  // Nothing to pay (cancelled, a no-show, closed with nothing due): no "Pay the driver" prompt.
  $('pay').hidden = s.payment.state === 'not_due';
  root.dataset.status = s.status;
  root.dataset.payment = s.payment.state;
}

let failures = 0;

async function poll(): Promise<void> {
  try {
    const res = await fetchStatus();
    if (!res.ok) throw new Error(String(res.status));
    const s = (await res.json()) as TrackStatus;
    apply(s);
    failures = 0;
    if (s.final) {
      live.hidden = true;
      return;
    }
  } catch {
    failures += 1;
  }
  setTimeout(() => void poll(), pollDelay(failures));
}

cancelButton.addEventListener('click', () => askAgain(true));
$('cancel-no').addEventListener('click', () => askAgain(false));
$button('cancel-yes').addEventListener('click', (event) => void cancel(event.currentTarget as HTMLButtonElement));
if (mapCard && mapEl && !mapCard.hidden) place(Number(mapEl.dataset.driverLat), Number(mapEl.dataset.driverLon));
showManage(root.dataset.status, root.dataset.final === 'true');
if (root.dataset.final !== 'true') setTimeout(() => void poll(), POLL_MS);
