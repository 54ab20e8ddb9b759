import { html } from './escape-html.js';
import { layout, type Page } from './layout.js';
import { papersSection } from './driver-papers.js';
import { pageScript } from './page-scripts.js';

// The driver app: a phone-sized page a driver uses one-handed in a car. Sign in with a texted code,
// go online (the browser's location then feeds dispatch), answer offers, drive the trip and
// confirm what was paid, and see earnings and the subscription. Everything goes through the same
// API a native app would call (src/routes/driver-app.ts); the session token stays on the phone.
// Its script: src/pages/browser/driver-app.ts.

export function renderDriverAppPage(): Page {
  const body = html`<h1>Driver</h1>
<p class="alert" id="message" role="status" aria-live="polite" hidden></p>
<section class="card" id="sign-in" aria-labelledby="sign-in-title">
<h2 id="sign-in-title">Sign in</h2>
<form id="phone-form">
<label for="phone">Your phone number</label>
<input id="phone" name="phone" type="tel" autocomplete="tel" placeholder="07400 123456" required>
<button type="submit">Text me a code</button>
</form>
<form id="code-form" hidden>
<label for="code">The 6-digit code</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required>
<button type="submit">Sign in</button>
</form>
<p class="hint">Not driving with us yet? <a href="/drivers/apply">Apply to drive</a>.</p>
</section>
<div id="app" hidden>
<section class="card toggle" aria-label="Availability">
<div><strong id="driver-name"></strong><br><span id="online-state">You are offline</span></div>
<button type="button" id="online-toggle" aria-pressed="false">Go online</button>
</section>
<p class="alert error" id="receiving" role="status" aria-live="polite" hidden></p>
<section aria-labelledby="jobs-title">
<h2 id="jobs-title">Jobs</h2>
<p class="hint" id="no-jobs">No jobs right now. Stay online and new offers appear here.</p>
<div id="jobs"></div>
</section>
<section aria-labelledby="upcoming-title">
<h2 id="upcoming-title">Upcoming jobs you can take</h2>
<p class="hint">Pre-booked jobs near you that nobody has yet. Take one and it is yours: you confirm it on the day. The address shows once it is yours.</p>
<p class="hint" id="no-upcoming">No upcoming jobs near you just now.</p>
<div id="upcoming"></div>
<div class="actions" id="upcoming-pages" hidden><button type="button" id="upcoming-prev" hidden>Earlier jobs</button><button type="button" id="upcoming-next" hidden>Later jobs</button></div>
</section>
<section class="card" aria-labelledby="earnings-title">
<h2 id="earnings-title">Your earnings</h2>
<dl class="facts">
<dt>Completed rides</dt><dd id="rides">0</dd>
<dt>Earnings</dt><dd id="earnings">£0.00</dd>
<dt>Dead mileage</dt><dd id="dead-miles">0.0 mi</dd>
<dt>Weeks</dt><dd id="weeks"></dd>
<dt>Subscription</dt><dd id="subscription"></dd>
</dl>
<p class="hint">No commission: every fare is yours. The subscription is £20 in weeks you earn over £500, otherwise free, plus 2p per text sent for you.</p>
<h3>Invoices</h3>
<p class="hint" id="no-invoices">No invoices yet.</p>
<div class="table-scroll"><table><thead><tr><th scope="col">Week</th><th scope="col">Charges</th><th scope="col">Total</th><th scope="col">Payment</th></tr></thead><tbody id="invoices"></tbody></table></div>
</section>
<section class="card" aria-labelledby="map-key-title">
<h2 id="map-key-title">Your map service</h2>
<p class="hint">Drive a lot? Add your own Mapbox key and the minutes your passengers are told you are from the pickup are worked out by road on it. Mapbox bills you for those requests directly; we never charge for maps, with or without a key. Fares are not affected.</p>
<p id="map-key-state"></p>
<form id="map-key-form">
<label for="map-key">Mapbox access token</label>
<input id="map-key" name="key" type="password" autocomplete="off" spellcheck="false" autocapitalize="off" maxlength="600" placeholder="pk.…" required>
<button type="submit" id="map-key-submit">Save key</button>
</form>
<button type="button" class="decline" id="map-key-remove" hidden>Remove my key</button>
</section>
${papersSection}
<button type="button" class="decline" id="sign-out">Sign out</button>
</div>`;
  return layout({ title: 'Driver', body, script: pageScript('driver-app') });
}
