import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

// Secrets handed to people and programs (staff keys, driver session tokens): 256 random bits,
// stored only as SHA-256 (full entropy: nothing to brute-force). Short codes a person types (sign-in
// codes) are too small to store as a plain hash, so they are keyed with the server's secret.

export function newSecret(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url');
}

export function hashSecret(plain: string): string {
  return createHash('sha256').update(plain, 'utf8').digest('hex');
}

/** A six-digit code, uniformly drawn. */
export function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

export function hashCode(serverSecret: string, subject: string, code: string): string {
  return createHmac('sha256', serverSecret).update(`${subject}:${code}`, 'utf8').digest('hex');
}

/** Equal hex digests, compared in constant time. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

/** The token of an `Authorization: Bearer <token>` header, if that is what it holds. */
export function bearerToken(header: string | undefined): string | null {
  const m = /^Bearer\s+([A-Za-z0-9_-]{16,200})$/.exec(header ?? '');
  return m?.[1] ?? null;
}
