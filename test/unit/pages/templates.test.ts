import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BookingWithDriver } from '../../../src/bookings/store.js';
import { renderQuotePage, type QuoteForPage } from '../../../src/pages/book-page.js';
import { escapeHtml, html, trustedHtml } from '../../../src/pages/escape-html.js';
import { renderJobCardPage } from '../../../src/pages/job-card-page.js';
import type { Page } from '../../../src/pages/layout.js';
import { STATIC_ASSETS } from '../../../src/pages/map-assets.js';
import { pageScript, pageScriptAssets } from '../../../src/pages/page-scripts.js';

import { renderTrackPage, trackStatus, type TrackMap } from '../../../src/pages/track-page.js';

const HOSTILE = `<img src=x onerror="alert('x')">&`;
const NOW = new Date('2026-07-03T12:00:00Z');
const NO_TILES: TrackMap = { pickup: { lat: 51.5, lon: -0.1 }, tileUrl: '', attribution: '' };
const OSM_CREDIT = '© [OpenStreetMap](https://www.openstreetmap.org/copyright) contributors';

function booking(over: Partial<BookingWithDriver> = {}): BookingWithDriver {
  return {
    ref: 'TXAB12CD34',
    status: 'assigned',
    source: 'agent_create',
    quote_id: null,
    passenger_name: 'Ada Lovelace',
    passenger_phone: '+447911123456',
    passenger_email: 'ada@example.com',
    email_verified: false,
    payment_method: 'cash_to_driver',
    flight_number: null,
    meet_and_greet: false,
    assistance_dog: false,
    help_finding_vehicle: false,
    notes: HOSTILE,
    agent: null,
    pickup_query: HOSTILE,
    dropoff_query: 'Heathrow',
    pickup: { label: HOSTILE, kind: 'postcode', lat: 51.5, lon: -0.1, postcodeDistrict: null, council: null },
    dropoff: {
      label: 'Heathrow Airport (LHR)',
      kind: 'airport',
      lat: 51.47,
      lon: -0.45,
      postcodeDistrict: null,
      council: null,
    },
    pickup_area: 'london-tfl',
    pickup_at: new Date('2026-07-03T14:30:00Z'),
    passengers: 2,
    vehicle_type: 'saloon',
    wheelchair: false,
    fare_pence: 4550,
    fare_source: 'quote',
    distance_m: 24000,
    duration_s: 2400,
    driver_id: 'drv-1',
    assigned_at: NOW,
    cancelled_at: null,
    cancel_reason: null,
    payment_state: 'pay_driver_on_completion',
    request_identity: null,
    passenger_account_id: null,
    created_at: NOW,
    d_name: `Sam "The Cab" O'Neil`,
    d_vehicle: HOSTILE,
    d_plate: 'AB12 CDE',
    d_payment_options: null,
    paid_pence: null,
    paid_method: null,
    paid_at: null,
    ...over,
  };
}

/**
 * No script is inline: each is a file this service serves, linked with its own integrity hash, and
 * the policy allows scripts from 'self' only. The one inline stylesheet is what the CSP hash allows.
 */
function expectStrictPolicy(page: Page) {
  expect(page.html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
  const served = [...STATIC_ASSETS, ...pageScriptAssets().values()];
  const scripts = [...page.html.matchAll(/<script src="([^"]+)" integrity="([^"]+)"><\/script>/g)];
  expect(scripts.length).toBeGreaterThan(0);
  for (const [, href, integrity] of scripts) {
    const asset = served.find((a) => a.href === href);
    expect(asset, href).toBeDefined();
    expect(integrity).toBe(`sha384-${createHash('sha384').update(asset!.body).digest('base64')}`);
  }
  const styles = [...page.html.matchAll(/<style>([\s\S]*?)<\/style>/g)];
  expect(styles).toHaveLength(1);
  expect(page.csp).toContain(`'sha256-${createHash('sha256').update(styles[0]![1]!, 'utf8').digest('base64')}'`);
  expect(page.csp).toContain("default-src 'none'");
  expect(page.csp).toMatch(/script-src 'self';/);
  expect(page.csp).not.toContain('unsafe-inline');
}

describe('html templates', () => {
  it('escapes every interpolated value, including inside arrays, and passes SafeHtml through', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
    const out = html`<p title="${HOSTILE}">${[HOSTILE, html`<b>${HOSTILE}</b>`]}${false}${null}${undefined}${3}${trustedHtml('<i>ok</i>')}</p>`;
    expect(out.value).toBe(
      `<p title="${escapeHtml(HOSTILE)}">${escapeHtml(HOSTILE)}<b>${escapeHtml(HOSTILE)}</b>3<i>ok</i></p>`,
    );
  });

  it('renders stored text on the tracking page and job card as text, never markup', () => {
    const track = renderTrackPage(trackStatus(booking()), NO_TILES);
    const card = renderJobCardPage({
      offer: {
        id: 'TXAB12CD34:1:drv-1',
        booking_ref: 'TXAB12CD34',
        driver_id: 'drv-1',
        round: 1,
        tier: 'local',
        status: 'offered',
        expires_at: new Date(NOW.getTime() + 60_000),
      },
      booking: booking(),
      token: `"><script>alert(1)</script>`,
      now: NOW,
    });
    for (const page of [track, card]) {
      expect(page.html).not.toContain('<img');
      expect(page.html).toContain(escapeHtml(HOSTILE));
      expectStrictPolicy(page);
    }
    expect(track.html).toContain(pageScript('track').href);
    expect(card.html).toContain(pageScript('job-offer').href);
    // The passenger sees the driver's first name only (issue 23, item 5).
    expect(track.html).toContain('data-field="driver_name">Sam</dd>');
    expect(track.html).not.toContain('Neil');
    expect(card.html).toContain('data-token="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(card.html).toContain('data-seconds-left="60"');
  });

  it('tells a passenger nobody has taken yet until when the search goes on, and that it ended', () => {
    const waiting = trackStatus(booking({ status: 'unassigned', driver_id: null }), {
      position: null,
      now: new Date('2026-07-03T14:40:00Z'),
    });
    expect(waiting).toMatchObject({ headline: 'Still looking for a driver', final: false });
    expect(waiting.detail).toContain('We keep asking drivers until 16:00 and will text you');
    const over = trackStatus(booking({ status: 'unassigned', driver_id: null }), {
      position: null,
      now: new Date('2026-07-03T15:00:00Z'),
    });
    expect(over).toMatchObject({ headline: 'No driver found', final: true });
    expect(renderTrackPage(over, NO_TILES).html).toMatch(/id="manage-link" hidden/);
  });

  it('shows London wall-clock time with BST and the fare in pounds, and hides passenger details from the tracking status', () => {
    const s = trackStatus(booking());
    expect(s.pickup_time).toBe('Fri 3 Jul 2026, 15:30 BST');
    expect(JSON.stringify(s)).not.toMatch(/Ada|7911|ada@/);
    expect(trackStatus(booking({ status: 'dispatching' })).driver).toBeNull();
    expect(trackStatus(booking({ status: 'cancelled' })).final).toBe(true);
    const card = renderJobCardPage({
      offer: {
        id: 'TXAB12CD34:1:drv-1',
        booking_ref: 'TXAB12CD34',
        driver_id: 'drv-1',
        round: 1,
        tier: 'local',
        status: 'timed_out',
        expires_at: NOW,
      },
      booking: booking(),
      token: 't',
      now: NOW,
    });
    expect(card.html).toContain('£45.50');
    expect(card.html).toContain('This offer has expired');
    expect(card.html).not.toContain('<script');
    expect(card.csp).toContain("script-src 'none'");
  });

  it("shows the fare and the assigned driver's own ways to pay, then what was paid", () => {
    const options = {
      cardReader: true,
      paymentLink: 'https://pay.example.com/sam',
      bankTransfer: { accountName: HOSTILE, sortCode: '12-34-56', accountNumber: '12345678' },
    };
    const s = trackStatus(booking({ d_payment_options: options }));
    expect(s.fare).toBe('£45.50');
    expect(s.payment.state).toBe('pay_driver_on_completion');
    expect(s.pay_options.map((o) => o.kind)).toEqual(['cash', 'card', 'payment_link', 'bank_transfer']);
    expect(s.pay_options.find((o) => o.kind === 'bank_transfer')?.detail).toContain('reference TXAB12CD34');
    const page = renderTrackPage(s, NO_TILES);
    expect(page.html).toContain('id="pay"');
    expect(page.html).toContain('href="https://pay.example.com/sam"');
    expect(page.html).not.toContain('<img');
    // No driver yet: nothing but the fare; a settled trip: what was paid, and the page stops polling.
    expect(trackStatus(booking({ status: 'dispatching', driver_id: null })).pay_options).toEqual([]);
    const paid = trackStatus(booking({ status: 'completed', paid_pence: 4550, paid_method: 'cash' }));
    expect(paid).toMatchObject({
      final: true,
      payment: { state: 'paid', detail: 'Paid £45.50 (cash). Thank you.' },
      pay_options: [],
    });
    expect(trackStatus(booking({ status: 'completed' }))).toMatchObject({
      final: false,
      payment: { state: 'awaiting_settlement' },
    });
    // A driver's stored options that no longer validate show cash only, never a broken link.
    expect(
      trackStatus(booking({ d_payment_options: { paymentLink: 'javascript:alert(1)' } })).pay_options.map(
        (o) => o.kind,
      ),
    ).toEqual(['cash']);
  });

  it("shows the driver's fresh position and an ETA only while they are coming, rounded to about 10 m", () => {
    // 1 km north of the pickup (51.5, -0.1): 1.3 km by road at 30 km/h is 2.6 minutes.
    const position = { lat: 51.50899321, lon: -0.10000049, at: new Date(NOW.getTime() - 60_000) };
    const live = { position, now: NOW };
    for (const status of ['assigned', 'en_route'] as const) {
      expect(trackStatus(booking({ status }), live)).toMatchObject({
        driver_position: { lat: 51.509, lon: -0.1, at: '2026-07-03T11:59:00.000Z' },
        eta_minutes: 3,
      });
    }
    // Waiting at the pickup: where, but nothing left to estimate.
    expect(trackStatus(booking({ status: 'arrived' }), live)).toMatchObject({
      driver_position: { lat: 51.509 },
      eta_minutes: null,
    });
    // Never before a driver has the job, never once the passenger is aboard or it is over.
    for (const status of ['dispatching', 'offered', 'on_board', 'completed', 'cancelled', 'no_show'] as const) {
      expect(trackStatus(booking({ status }), live)).toMatchObject({ driver_position: null, eta_minutes: null });
    }
    expect(trackStatus(booking({ driver_id: null }), live).driver_position).toBeNull();
    // A report 10 minutes old says where the app was, not the car.
    const stale = { position: { ...position, at: new Date(NOW.getTime() - 10 * 60_000) }, now: NOW };
    expect(trackStatus(booking({ status: 'en_route' }), stale)).toMatchObject({
      driver_position: null,
      eta_minutes: null,
    });
    expect(trackStatus(booking({ status: 'en_route' }))).toMatchObject({ driver_position: null, eta_minutes: null });
  });

  it('without a tile source, says in words where the driver is and loads no map at all', () => {
    const live = { position: { lat: 51.509, lon: -0.1, at: NOW }, now: NOW, near: () => 'Southwark Street, Southwark' };
    const s = trackStatus(booking({ status: 'en_route' }), live);
    expect(s).toMatchObject({ driver_near: 'Southwark Street, Southwark', driver_distance_m: 1000, eta_minutes: 3 });
    const page = renderTrackPage(s, NO_TILES);
    expectStrictPolicy(page);
    expect(page.html).toContain(
      '<p class="eta" data-field="eta">Your driver is near Southwark Street, Southwark, 0.6 miles away: about 3 min.</p>',
    );
    expect(page.html).not.toMatch(/id="map-card"[^>]*hidden/);
    // No box, no Leaflet, no tiles, and never the coordinates in the page.
    expect(page.html).not.toContain('id="map"');
    expect(page.html).not.toContain('leaflet');
    expect(page.html).not.toContain('51.509');
    expect(page.csp).toMatch(/style-src 'sha256-[^']+';/);
    expect(page.csp).not.toContain('img-src');
    // A place name is text, escaped like any other.
    const hostile = trackStatus(booking({ status: 'en_route' }), { ...live, near: () => HOSTILE });
    expect(renderTrackPage(hostile, NO_TILES).html).toContain(escapeHtml(HOSTILE));
    expect(renderTrackPage(hostile, NO_TILES).html).not.toContain(HOSTILE);
  });

  it('with a tile source, loads Leaflet from this service, pinned by integrity, credits the provider under the map, and allows tiles only from its origin', () => {
    const live = { position: { lat: 51.509, lon: -0.1, at: NOW }, now: NOW };
    const s = trackStatus(booking({ status: 'en_route' }), live);
    const TILES: TrackMap = {
      ...NO_TILES,
      tileUrl: 'https://{s}.tile.example.org:8443/osm/{z}/{x}/{y}.png',
      attribution: OSM_CREDIT,
    };
    const page = renderTrackPage(s, TILES);
    expectStrictPolicy(page);
    expect(page.html).toMatch(
      /<link rel="stylesheet" href="\/assets\/leaflet\.css\?v=[0-9a-f]{12}" integrity="sha384-[A-Za-z0-9+/=]+">/,
    );
    expect(page.html).toMatch(
      /<script src="\/assets\/leaflet\.js\?v=[0-9a-f]{12}" integrity="sha384-[A-Za-z0-9+/=]+"><\/script>/,
    );
    expect(page.html).toContain('data-driver-lat="51.509" data-driver-lon="-0.1"');
    expect(page.html).toContain('data-tile-url="https://{s}.tile.example.org:8443/osm/{z}/{x}/{y}.png"');
    // The same words above the map (no place named here: the distance and the minutes).
    expect(page.html).toContain('Your driver is 0.6 miles away: about 3 min.');
    expect(page.html).toContain(
      '<p class="map-credit" id="map-credit">Map: © <a href="https://www.openstreetmap.org/copyright" rel="noopener noreferrer" target="_blank">OpenStreetMap</a> contributors</p>',
    );
    expect(page.html).not.toMatch(/id="map-card"[^>]*hidden/);
    // Leaflet first, then the page's own script, which uses its global L.
    expect(page.html.indexOf('/assets/leaflet.js')).toBeLessThan(page.html.indexOf(pageScript('track').href));
    expect(page.csp).toMatch(/style-src 'self' 'sha256-[^']+';/);
    expect(page.csp).toContain('img-src https://*.tile.example.org:8443 data:;');
    expect(renderTrackPage(s, { ...TILES, tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png' }).csp).toContain(
      'img-src https://tile.openstreetmap.org data:;',
    );
    // A credit is words and https links only, escaped: nothing in it becomes markup.
    const odd = renderTrackPage(s, { ...TILES, attribution: `${HOSTILE} [a"b](https://x.example/?q="y")` }).html;
    expect(odd).not.toContain(HOSTILE);
    expect(odd).toContain(escapeHtml(HOSTILE));

    // No driver yet: the card is there, hidden, for when one is coming.
    const waiting = renderTrackPage(trackStatus(booking({ status: 'dispatching', driver_id: null })), TILES);
    expect(waiting.html).toMatch(/id="map-card" hidden/);
    expect(waiting.html).not.toContain('data-driver-lat');
    // Past the pickup the map cannot return: no Leaflet, no stylesheet but the page's own.
    const aboard = renderTrackPage(trackStatus(booking({ status: 'on_board' }), live), NO_TILES);
    expect(aboard.html).not.toContain('leaflet');
    expect(aboard.html).not.toContain('id="map"');
    expectStrictPolicy(aboard);
    expect(aboard.csp).toMatch(/style-src 'sha256-[^']+';/);
    // The other pages are as strict as before.
    const card = renderJobCardPage({
      offer: {
        id: 'TXAB12CD34:1:drv-1',
        booking_ref: 'TXAB12CD34',
        driver_id: 'drv-1',
        round: 1,
        tier: 'local',
        status: 'offered',
        expires_at: NOW,
      },
      booking: booking(),
      token: 't',
      now: NOW,
    });
    expect(card.csp).toMatch(/style-src 'sha256-[^']+';/);
    expect(card.html).not.toContain('leaflet');
  });

  it('chooses the booking page by the quote state and the clock', () => {
    const quote: QuoteForPage = {
      id: '6f1c1b7e-9d43-4f1e-8f55-0b8f0e6f2a10',
      status: 'open',
      pickup_query: HOSTILE,
      dropoff_query: 'LHR',
      pickup: { label: HOSTILE, kind: 'station', precision: 'point' },
      dropoff: { label: 'Heathrow Airport (LHR)' },
      depart_at: new Date('2026-07-03T14:30:00Z'),
      vehicle_type: 'saloon',
      passengers: 1,
      meet_and_greet: false,
      worldwide: false,
      fare_pence: 4550,
      expires_at: new Date(NOW.getTime() + 60_000),
      booking_ref: null,
    };
    const open = renderQuotePage(quote, NOW);
    expect(open.status).toBe(200);
    expect(open.html).toContain('Book for £45.50');
    expect(open.html).toContain('Fri 3 Jul 2026, 15:30 BST');
    expectStrictPolicy(open);
    expect(open.html).toContain(pageScript('book').href);
    expect(renderQuotePage({ ...quote, expires_at: NOW }, NOW).status).toBe(410);
    const expired = renderQuotePage({ ...quote, status: 'expired' }, NOW);
    expect(expired.status).toBe(410);
    expect(expired.html).toContain(`data-pickup="${escapeHtml(HOSTILE)}"`);
    expect(expired.html).toContain('data-depart-at="2026-07-03T14:30:00.000Z"');
    expectStrictPolicy(expired);
    expect(expired.html).toContain(pageScript('book-requote').href);
    // A pickup that is only a town centre: no booking until the passenger says where exactly.
    const vague = renderQuotePage(
      { ...quote, pickup: { label: 'Leeds', kind: 'place', precision: 'town_centre', town: HOSTILE } },
      NOW,
    );
    expect(vague.html).toContain('Where exactly?');
    expect(vague.html).toContain(`data-town="${escapeHtml(HOSTILE)}"`);
    expect(vague.html).not.toContain('Book for');
    expectStrictPolicy(vague);
    expect(vague.html).toContain(pageScript('book-refine').href);
    const redeemed = renderQuotePage({ ...quote, status: 'redeemed', booking_ref: 'TXAB12CD34' }, NOW);
    // Whoever holds a spent quote's link learns nothing of its booking (issue 37, item 4).
    expect(redeemed.html).toContain('Already booked');
    expect(redeemed.html).not.toContain('TXAB12CD34');
    expect(redeemed.html).not.toContain('/track/');
    expect(renderQuotePage(null, NOW).status).toBe(404);
  });
});
