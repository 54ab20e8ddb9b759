import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../../src/http/redact.js';

describe('redactUrl', () => {
  it('hides tokens, codes and link signatures in a logged URL, and keeps the rest', () => {
    expect(redactUrl('/mcp?access_token=eyJabc.def.ghi')).toBe('/mcp?access_token=%5Bredacted%5D');
    expect(redactUrl('/api/public/v1/booking/TX123?token=secret&x=1')).toBe(
      '/api/public/v1/booking/TX123?token=%5Bredacted%5D&x=1',
    );
    expect(redactUrl('/confirm/TX1?t=abc')).not.toContain('abc');
    expect(redactUrl('/cb?code=xyz&state=s')).toBe('/cb?code=%5Bredacted%5D&state=s');
    expect(redactUrl('/track/TX123')).toBe('/track/TX123');
    expect(redactUrl('/oauth/authorize?client_id=a&code_challenge=b')).toBe(
      '/oauth/authorize?client_id=a&code_challenge=b',
    );
  });
});
