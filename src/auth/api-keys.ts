import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Sql } from '../db/sql.js';

// Keys are random 256-bit secrets; only their SHA-256 is stored. A fast hash is right here (unlike
// passwords) because the secret has full entropy: there is nothing to brute-force.

const KEY_PREFIX = 'ntk_';

export interface ApiKey {
  id: string;
  name: string;
  partnerId: string | null;
  rateLimitExempt: boolean;
  /** The key's own quotes an hour (migration 00045); absent or null: QUOTE_RATE_LIMIT_PER_HOUR. */
  quotesPerHour?: number | null;
  /**
   * A sandbox key, or a key of a sandbox partner (migration 00023): its bookings are sandbox rides,
   * kept apart from live ones in every lookup (docs/partners.md, "Sandbox keys"). Absent: live.
   */
  sandbox?: boolean;
}

export function hashApiKey(plain: string): string {
  return createHash('sha256').update(plain, 'utf8').digest('hex');
}

export async function createApiKey(
  sql: Sql,
  opts: {
    name: string;
    partnerId?: string | null;
    rateLimitExempt?: boolean;
    /** Quotes an hour for this key, instead of QUOTE_RATE_LIMIT_PER_HOUR (issue 37). */
    quotesPerHour?: number | null;
    /** Bookings made with it go to sandbox drivers only (migration 00023; a partner's keys follow the partner's own flag). */
    sandbox?: boolean;
  },
): Promise<{ key: string; apiKey: ApiKey }> {
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  const id = randomUUID();
  await sql`
    insert into api_keys (id, name, key_prefix, key_hash, partner_id, rate_limit_exempt, sandbox, quotes_per_hour)
    values (${id}, ${opts.name}, ${key.slice(0, 10)}, ${hashApiKey(key)}, ${opts.partnerId ?? null},
            ${opts.rateLimitExempt ?? false}, ${opts.sandbox ?? false}, ${opts.quotesPerHour ?? null})`;
  return {
    key,
    apiKey: {
      id,
      name: opts.name,
      partnerId: opts.partnerId ?? null,
      rateLimitExempt: !!opts.rateLimitExempt,
      quotesPerHour: opts.quotesPerHour ?? null,
      sandbox: !!opts.sandbox,
    },
  };
}

/**
 * Looks a presented key up by its hash. Results are cached briefly per process so the hot quote
 * path does not pay a query per request; a revoked key stops working within CACHE_MS.
 */
export class ApiKeyStore {
  private static readonly CACHE_MS = 30_000;
  private static readonly CACHE_MAX = 10_000;
  private readonly cache = new Map<string, { key: ApiKey | null; until: number }>();

  constructor(private readonly sql: Sql) {}

  async verify(plain: string): Promise<ApiKey | null> {
    if (plain.length < 8 || plain.length > 200) return null;
    const hash = hashApiKey(plain);
    const cached = this.cache.get(hash);
    if (cached && cached.until > Date.now()) return cached.key;
    const rows = await this.sql<
      {
        id: string;
        name: string;
        partner_id: string | null;
        rate_limit_exempt: boolean;
        quotes_per_hour: number | null;
        key_hash: string;
        sandbox: boolean;
      }[]
    >`
      select k.id, k.name, k.partner_id, k.rate_limit_exempt, k.quotes_per_hour, k.key_hash, (k.sandbox or coalesce(p.sandbox, false)) as sandbox
        from api_keys k left join partners p on p.id = k.partner_id
       where k.key_hash = ${hash} and k.revoked_at is null`;
    const row = rows[0];
    // The index lookup already matched; the constant-time compare keeps the decision itself
    // independent of where two hashes first differ.
    const key =
      row && timingSafeEqual(Buffer.from(row.key_hash, 'hex'), Buffer.from(hash, 'hex'))
        ? {
            id: row.id,
            name: row.name,
            partnerId: row.partner_id,
            rateLimitExempt: row.rate_limit_exempt,
            quotesPerHour: row.quotes_per_hour,
            sandbox: row.sandbox,
          }
        : null;
    if (this.cache.size >= ApiKeyStore.CACHE_MAX) this.cache.clear();
    this.cache.set(hash, { key, until: Date.now() + ApiKeyStore.CACHE_MS });
    return key;
  }
}
