import { describe, expect, it } from 'vitest';
import { checkRedirectUri } from '../../../src/mcp/oauth/redirect-uris.js';
import { bearerChallenge, protectedResourceMetadata, requiredScope } from '../../../src/mcp/resource-server.js';
import { grantedScopes } from '../../../src/mcp/scopes.js';
import { readSignInIdentifier } from '../../../src/passengers/sign-in.js';
import { maskIdentifier } from '../../../src/pages/oauth-pages.js';

const config = { PUBLIC_BASE_URL: 'https://taxi.example' };

describe('redirect URIs', () => {
  it('takes https anywhere and http only on loopback', () => {
    expect(checkRedirectUri('https://claude.example/api/mcp/auth_callback')).toEqual({ ok: true });
    expect(checkRedirectUri('http://127.0.0.1:33418/callback')).toEqual({ ok: true });
    expect(checkRedirectUri('http://localhost:6274/oauth/callback')).toEqual({ ok: true });
    expect(checkRedirectUri('http://[::1]:8080/cb')).toEqual({ ok: true });
  });

  it('refuses plain http elsewhere, custom schemes, fragments, credentials and non-URLs', () => {
    for (const bad of [
      'http://assistant.example/cb',
      'http://192.168.1.5/cb',
      'cursor://anysphere/cb',
      'https://a.example/cb#x',
      'https://u:p@a.example/cb',
      'not a url',
      'javascript:alert(1)',
    ]) {
      expect(checkRedirectUri(bad).ok, bad).toBe(false);
    }
  });
});

describe('scopes', () => {
  it('reads a token scope claim; booking includes pricing, unknown scopes count for nothing', () => {
    expect([...grantedScopes('taxi:quote')]).toEqual(['taxi:quote']);
    expect([...grantedScopes('taxi:book')].sort()).toEqual(['taxi:book', 'taxi:quote']);
    expect([...grantedScopes('openid offline_access admin')]).toEqual([]);
    expect([...grantedScopes(undefined)]).toEqual([]);
  });

  it('asks taxi:book only of a start_booking call, single or batched', () => {
    expect(requiredScope({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'start_booking' } })).toBe(
      'taxi:book',
    );
    expect(requiredScope({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'estimate_fare' } })).toBe(
      'taxi:quote',
    );
    expect(requiredScope([{ method: 'tools/list' }, { method: 'tools/call', params: { name: 'start_booking' } }])).toBe(
      'taxi:book',
    );
    expect(requiredScope({ method: 'initialize' })).toBe('taxi:quote');
    expect(requiredScope(null)).toBe('taxi:quote');
  });
});

describe('the bearer challenge and resource metadata', () => {
  it('points at the metadata and names the scopes, and the error when a token was refused', () => {
    expect(bearerChallenge(config)).toBe(
      'Bearer resource_metadata="https://taxi.example/.well-known/oauth-protected-resource/mcp", scope="taxi:quote taxi:book"',
    );
    const refused = bearerChallenge(config, {
      error: 'insufficient_scope',
      description: 'requires "taxi:book"',
      scope: ['taxi:book'],
    });
    expect(refused).toBe(
      'Bearer error="insufficient_scope", error_description="requires taxi:book", resource_metadata="https://taxi.example/.well-known/oauth-protected-resource/mcp", scope="taxi:book"',
    );
  });

  it('names /mcp as the resource and the service as its authorization server', () => {
    expect(protectedResourceMetadata(config)).toMatchObject({
      resource: 'https://taxi.example/mcp',
      authorization_servers: ['https://taxi.example'],
      bearer_methods_supported: ['header'],
    });
  });
});

describe('sign-in identifiers', () => {
  it('reads a UK phone as people write it, an international one or an email, and says what is wrong with anything else', () => {
    expect(readSignInIdentifier(' +44 7400 123456 ')).toEqual({
      ok: true,
      identifier: { kind: 'phone', value: '+447400123456' },
    });
    expect(readSignInIdentifier('07400 123456')).toEqual({
      ok: true,
      identifier: { kind: 'phone', value: '+447400123456' },
    });
    expect(readSignInIdentifier('(07400) 123-456')).toEqual({
      ok: true,
      identifier: { kind: 'phone', value: '+447400123456' },
    });
    expect(readSignInIdentifier('Ada@Example.com')).toEqual({
      ok: true,
      identifier: { kind: 'email', value: 'ada@example.com' },
    });
    const bare = readSignInIdentifier('7400 123456');
    expect(bare.ok).toBe(false);
    expect(!bare.ok && bare.reason).toMatch(/country code/);
    expect(readSignInIdentifier('info@example.com').ok).toBe(false);
  });

  it('masks what the pages show of it', () => {
    // A phone as people write it, not as stored.
    expect(maskIdentifier('+447400123456')).toBe('07400 ••• 456');
    expect(maskIdentifier('+442079460958')).toBe('020 ••• 958');
    expect(maskIdentifier('+33612345678')).toBe('+33 ••• 678');
    expect(maskIdentifier('ada@example.com')).toBe('a•••@example.com');
  });
});
