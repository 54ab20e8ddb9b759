// What request logs may show of a URL: never the secrets some links and refused requests carry in
// their query (job-card and confirmation links' `t`, manage tokens, an access token sent in the
// URL against the rules, an authorization code).

const SECRET_PARAMS = new Set([
  't',
  'token',
  'access_token',
  'refresh_token',
  'code',
  'client_secret',
  'code_verifier',
  'id_token_hint',
]);

export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  let changed = false;
  for (const key of [...params.keys()]) {
    if (SECRET_PARAMS.has(key.toLowerCase())) {
      params.set(key, '[redacted]');
      changed = true;
    }
  }
  return changed ? `${url.slice(0, q)}?${params.toString()}` : url;
}
