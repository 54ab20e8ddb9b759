import type { Sql } from '../db/sql.js';
import { registerHookAt, rotateHookSecretAt } from './client.js';
import { saveExchangeFleet, saveWebhookSecret, type ExchangeFleet, type NewExchangeFleet } from './store.js';

// Registering an exchange fleet (docs/exchange.md): the fleet first registered us as a partner of
// its own and gave us a partner id and a signing secret; we store those (sealed), then register our
// booking-status hook as our callback URL at the fleet and keep the whsec_ secret it issues, with
// which its events to our hook are verified. Run again, it updates the fleet and takes a new
// secret if the fleet does not show the old one again.

/** Our hook, where every exchange fleet's status events come. */
export const EXCHANGE_HOOK_PATH = '/api/public/hooks/booking-status';

export async function registerExchangeFleet(
  sql: Sql,
  secretsKey: string,
  f: NewExchangeFleet & { hookUrl: string },
): Promise<ExchangeFleet & { hookUrl: string }> {
  const fleet = await saveExchangeFleet(sql, secretsKey, f);
  const endpoint = { baseUrl: fleet.baseUrl, ourPartnerId: f.ourPartnerId, signingSecret: f.signingSecret };
  const registered = await registerHookAt(endpoint, f.hookUrl);
  // Registered before: the fleet shows a secret only once, so we ask for a new one.
  const whsec = registered.signingSecret ?? (await rotateHookSecretAt(endpoint));
  await saveWebhookSecret(sql, secretsKey, fleet.id, whsec);
  return { ...fleet, hookRegistered: true, hookUrl: registered.url };
}
