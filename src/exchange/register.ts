import type { Sql } from '../db/sql.js';
import { createPartner, findPartner, issueSigningSecret } from '../partners/store.js';
import { registerHookAt, rotateHookSecretAt } from './client.js';
import {
  EXCHANGE_FLEET_ID_PATTERN,
  fleetWithSigningSecret,
  saveExchangeFleet,
  saveWebhookSecret,
  type ExchangeFleet,
} from './store.js';

// Registering an exchange fleet (docs/exchange.md): the fleet and our partner record of it, in one
// step, so the link between them (the jobs it sends us are an exchange fleet's, never handed on)
// cannot be forgotten. The partner record is the fleet's own id, made here when it does not exist
// yet, and its signing secret is what the fleet needs to register us in turn. Once the fleet has
// registered us and given us its partner id for us and its signing secret, we store those
// (sealed), register our booking-status hook as our callback URL at the fleet and keep the whsec_
// secret it issues, with which its events to our hook are verified. Run again, it updates the
// fleet and takes a new secret if the fleet does not show the old one again.

/** Our hook, where every exchange fleet's status events come. */
export const EXCHANGE_HOOK_PATH = '/api/public/hooks/booking-status';

export interface ExchangeRegistration {
  id: string;
  name: string;
  baseUrl: string;
  /** What the fleet gave us once it registered us: its partner id for us and the signing secret it issued. */
  credentials?: { ourPartnerId: string; signingSecret: string } | null;
  /** Our partner record of the fleet when it already has one under another id (it must exist); default: the fleet's own id, made if missing. */
  partnerId?: string | null;
  approved?: boolean;
}

export interface SavedExchangeRegistration {
  fleet: ExchangeFleet;
  /** Our partner record of the fleet, and its signing secret when it was made now (shown once: the fleet registers us with it). */
  partner: { id: string; created: boolean; signingSecret: string | null };
}

/** In our database: our partner record of the fleet (made if missing) and the fleet, linked to it. */
export async function saveExchangeRegistration(
  sql: Sql,
  secretsKey: string,
  r: ExchangeRegistration,
): Promise<SavedExchangeRegistration> {
  if (!EXCHANGE_FLEET_ID_PATTERN.test(r.id))
    throw new Error(`exchange fleet id ${r.id} must match ${EXCHANGE_FLEET_ID_PATTERN}`);
  let partner: SavedExchangeRegistration['partner'];
  if (r.partnerId && r.partnerId !== r.id) {
    if (!(await findPartner(sql, r.partnerId)))
      throw new Error(
        `no partner ${r.partnerId}: name our existing partner record of the fleet, or leave --partner out to make one`,
      );
    partner = { id: r.partnerId, created: false, signingSecret: null };
  } else if (await findPartner(sql, r.id)) {
    partner = { id: r.id, created: false, signingSecret: null };
  } else {
    await createPartner(sql, { id: r.id, name: r.name, kind: 'partner' });
    partner = { id: r.id, created: true, signingSecret: await issueSigningSecret(sql, secretsKey, r.id) };
  }
  const fleet = await saveExchangeFleet(sql, secretsKey, {
    id: r.id,
    name: r.name,
    baseUrl: r.baseUrl,
    partnerId: partner.id,
    credentials: r.credentials ?? null,
    ...(r.approved === undefined ? {} : { approved: r.approved }),
  });
  return { fleet, partner };
}

/** At the fleet, with the credentials it gave us: our hook registered as our callback, its whsec_ secret stored. */
export async function connectExchangeFleet(
  sql: Sql,
  secretsKey: string,
  fleetId: string,
  hookUrl: string,
): Promise<{ hookUrl: string }> {
  const fleet = await fleetWithSigningSecret(sql, secretsKey, fleetId);
  if (!fleet)
    throw new Error(
      `exchange fleet ${fleetId} has no credentials yet: register it with the partner id and signing secret it gave us`,
    );
  const endpoint = { baseUrl: fleet.baseUrl, ourPartnerId: fleet.ourPartnerId, signingSecret: fleet.signingSecret };
  const registered = await registerHookAt(endpoint, hookUrl);
  // Registered before: the fleet shows a secret only once, so we ask for a new one.
  const whsec = registered.signingSecret ?? (await rotateHookSecretAt(endpoint));
  await saveWebhookSecret(sql, secretsKey, fleet.id, whsec);
  return { hookUrl: registered.url };
}

/** Both, as `npm run exchange:register` does them: the hook only once the fleet's credentials are in. */
export async function registerExchangeFleet(
  sql: Sql,
  secretsKey: string,
  r: ExchangeRegistration & { hookUrl: string },
): Promise<SavedExchangeRegistration & { hookUrl: string | null }> {
  const saved = await saveExchangeRegistration(sql, secretsKey, r);
  if (!saved.fleet.credentialsStored) return { ...saved, hookUrl: null };
  const { hookUrl } = await connectExchangeFleet(sql, secretsKey, r.id, r.hookUrl);
  return { fleet: { ...saved.fleet, hookRegistered: true }, partner: saved.partner, hookUrl };
}
