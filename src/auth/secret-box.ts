import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

// Secrets the service has to use, not just check (partners' HMAC signing secrets, webhook secrets,
// the OAuth server's signing key), cannot be stored as hashes like API keys. They are sealed with
// AES-256-GCM under a key from the configuration (PARTNER_SECRETS_KEY, OAUTH_SECRET): a database
// dump alone gives nobody a secret.

const VERSION = 'v1';

function keyFrom(secretsKey: string): Buffer {
  return createHash('sha256').update(secretsKey, 'utf8').digest();
}

export function sealSecret(secretsKey: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFrom(secretsKey), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [
    VERSION,
    iv.toString('base64url'),
    body.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
  ].join('.');
}

export function openSecret(secretsKey: string, sealed: string): string {
  const [version, iv, body, tag] = sealed.split('.');
  if (version !== VERSION || !iv || !body || !tag) throw new Error('not a sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', keyFrom(secretsKey), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
