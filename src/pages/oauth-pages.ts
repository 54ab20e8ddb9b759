import { html } from './escape-html.js';
import { displayPhone } from '../passengers/phone.js';
import { layout, messagePage, type Page } from './layout.js';

// The pages a passenger sees when an AI assistant asks to use their account (OAuth 2.1, behind
// /mcp): sign in with a code sent to their phone or email, then allow or deny what the assistant
// asked for. Plain forms, no script: they work in any browser an assistant opens.

export interface ClientFacts {
  /** As the client calls itself (client_name); it cannot be verified, so the host is shown too. */
  name: string | null;
  /** Where the client really comes from: its metadata document's host, or its redirect URI's. */
  host: string;
  /** Origin of the redirect the browser will follow when the passenger is done. */
  redirectOrigin: string;
}

const clientLabel = (c: ClientFacts) => c.name ?? c.host;

function pageFor(title: string, c: ClientFacts, body: ReturnType<typeof html>, status = 200): Page {
  return layout({ status, title, body, extras: { formAction: [c.redirectOrigin] } });
}

function fieldError(id: string, message: string | undefined) {
  return html`<p class="field-error" id="${id}" role="alert">${message ?? ''}</p>`;
}

export function signInPage(o: {
  uid: string;
  client: ClientFacts;
  identifier?: string;
  error?: string;
  status?: number;
}): Page {
  return pageFor(
    'Sign in',
    o.client,
    html`<div class="card">
<h1>Sign in to Direct Taxi</h1>
<p><strong>${clientLabel(o.client)}</strong> <span class="muted">(${o.client.host})</span> is asking to use your Direct Taxi account.</p>
<form method="post" action="/oauth/interaction/${o.uid}/code" novalidate>
<label for="identifier">Your mobile number or email</label>
<input type="text" id="identifier" name="identifier" autocomplete="username" required maxlength="254" value="${o.identifier ?? ''}"
  aria-describedby="identifier-hint identifier-error"${o.error ? html` aria-invalid="true"` : ''}>
<p class="hint" id="identifier-hint">We send a six-digit code to it: a UK mobile (e.g. 07400 123456) or your email.</p>
${fieldError('identifier-error', o.error)}
<button type="submit">Send me a code</button>
</form>
<form method="post" action="/oauth/interaction/${o.uid}/abort"><button type="submit" class="decline">Cancel</button></form>
</div>`,
    o.status,
  );
}

/**
 * The identifier with most of it hidden: enough to recognise, not to learn. A phone is shown as
 * people write it (displayPhone: "07400 ••• 456" for a UK number, "+33 ••• 678" for another), not
 * as stored (docs/decisions.md, "Passenger checks").
 */
export function maskIdentifier(identifier: string): string {
  if (identifier.includes('@')) {
    const [local = '', domain = ''] = identifier.split('@');
    return `${local.slice(0, 1)}•••@${domain}`;
  }
  const shown = displayPhone(identifier);
  const lead = shown.includes(' ') ? shown.slice(0, shown.indexOf(' ')) : shown.slice(0, 3);
  return `${lead} ••• ${identifier.slice(-3)}`;
}

export function codePage(o: {
  uid: string;
  client: ClientFacts;
  identifier: string;
  error?: string;
  status?: number;
}): Page {
  return pageFor(
    'Enter your code',
    o.client,
    html`<div class="card">
<h1>Enter your code</h1>
<p>We sent a six-digit code to <strong>${maskIdentifier(o.identifier)}</strong>. It works for 10 minutes.</p>
<form method="post" action="/oauth/interaction/${o.uid}/login" novalidate>
<input type="hidden" name="identifier" value="${o.identifier}">
<label for="code">Code</label>
<input type="text" id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required
  aria-describedby="code-error"${o.error ? html` aria-invalid="true"` : ''}>
${fieldError('code-error', o.error)}
<button type="submit">Sign in</button>
</form>
<form method="post" action="/oauth/interaction/${o.uid}/code">
<input type="hidden" name="identifier" value="${o.identifier}">
<button type="submit" class="decline">Send a new code</button>
</form>
</div>`,
    o.status,
  );
}

export function consentPage(o: {
  uid: string;
  client: ClientFacts;
  signedInAs: string;
  scopes: readonly { scope: string; description: string }[];
}): Page {
  return pageFor(
    'Allow access',
    o.client,
    html`<div class="card">
<h1>Allow ${clientLabel(o.client)}?</h1>
<p><strong>${clientLabel(o.client)}</strong> <span class="muted">(${o.client.host})</span> wants to use your Direct Taxi account,
signed in as <strong>${maskIdentifier(o.signedInAs)}</strong>. It will be able to:</p>
<ul class="scopes">${o.scopes.map((s) => html`<li>${s.description} <span class="muted">(${s.scope})</span></li>`)}</ul>
<p class="hint">Fares are the council's regulated taxi fares, paid to the driver; Direct Taxi takes no commission.
Every booking it makes is yours: you can look it up and cancel it from the link in its confirmation.
You will be sent back to ${o.client.redirectOrigin}.</p>
<div class="actions">
<form method="post" action="/oauth/interaction/${o.uid}/abort"><button type="submit" class="decline">Deny</button></form>
<form method="post" action="/oauth/interaction/${o.uid}/confirm"><button type="submit">Allow</button></form>
</div>
</div>`,
  );
}

/** The sign-in this page belonged to is over (expired, finished, or from another browser). */
export function interactionGonePage(): Page {
  return messagePage(
    400,
    'This sign-in has ended',
    html`<p>This sign-in has expired or was already finished. Go back to your assistant and connect to Direct Taxi again.</p>`,
  );
}

/** The authorization server's own errors (a bad client, redirect URI or request), shown when it cannot redirect. */
export function oauthErrorPage(error: string, description: string | undefined): Page {
  return messagePage(
    400,
    'The assistant’s request was refused',
    html`<p>Direct Taxi refused the sign-in request your assistant sent.</p><p class="muted">${error}${description ? `: ${description}` : ''}</p>`,
  );
}
