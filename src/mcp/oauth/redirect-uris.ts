// Where the authorization server may send a user back with a code: an https URL, or an http URL
// on this computer's loopback (the local redirect of a desktop or command-line assistant, RFC
// 8252). Nothing else: no custom schemes, no plain http to another host, no credentials or
// fragments. Matching is then exact (oidc-provider compares the registered string), so a client
// cannot register one URL and use a look-alike.

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export type RedirectCheck = { ok: true } | { ok: false; reason: string };

export function checkRedirectUri(uri: string): RedirectCheck {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return { ok: false, reason: 'is not a URL' };
  }
  if (url.hash || uri.includes('#')) return { ok: false, reason: 'must not have a fragment' };
  if (url.username || url.password) return { ok: false, reason: 'must not carry credentials' };
  if (url.protocol === 'https:') return { ok: true };
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return { ok: true };
  return { ok: false, reason: 'must be https, or http on localhost, 127.0.0.1 or [::1]' };
}
