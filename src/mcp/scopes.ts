// What a passenger can let an AI assistant do, and where: the scopes of the MCP server and its
// address, which is also the audience of every access token it accepts (RFC 8707, RFC 9728).

export const MCP_SCOPES = ['taxi:quote', 'taxi:book'] as const;
export type McpScope = (typeof MCP_SCOPES)[number];

/** As the consent page says them to the passenger. */
export const SCOPE_DESCRIPTIONS: Record<McpScope, string> = {
  'taxi:quote': 'See taxi fares and what the service offers',
  'taxi:book': 'Book taxis in your name, to be paid to the driver',
};

/**
 * The scopes a token's `scope` claim grants. Booking includes pricing (a booking needs its fare,
 * and someone who allowed the one would not refuse the other), so taxi:book implies taxi:quote.
 */
export function grantedScopes(scopeClaim: unknown): Set<McpScope> {
  const given = new Set(typeof scopeClaim === 'string' ? scopeClaim.split(' ') : []);
  const out = new Set<McpScope>(MCP_SCOPES.filter((s) => given.has(s)));
  if (out.has('taxi:book')) out.add('taxi:quote');
  return out;
}

/** The MCP server's canonical URI: the resource indicator clients send and the tokens' audience. */
export function mcpResourceUrl(config: { PUBLIC_BASE_URL: string }): string {
  return `${config.PUBLIC_BASE_URL}/mcp`;
}

/** The authorization server's issuer: the service itself, so its metadata is at /.well-known/oauth-authorization-server. */
export function oauthIssuer(config: { PUBLIC_BASE_URL: string }): string {
  return config.PUBLIC_BASE_URL;
}

/** RFC 9728: the resource's metadata at the well-known path with the resource's path appended. */
export function protectedResourceMetadataUrl(config: { PUBLIC_BASE_URL: string }): string {
  return `${config.PUBLIC_BASE_URL}/.well-known/oauth-protected-resource/mcp`;
}
