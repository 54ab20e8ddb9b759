import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { openSecret, sealSecret } from '../../auth/secret-box.js';
import type { Sql } from '../../db/sql.js';

// The authorization server signs access tokens (JWT, ES256) with a key every API process must
// share: the first process to start makes it and stores it sealed under OAUTH_SECRET; the others
// (and later starts) read it. The MCP resource server verifies tokens against the public half.

export interface SigningKeys {
  /** Private JWKs, newest first: oidc-provider signs with the first. */
  privateJwks: JWK[];
  /** The public halves, as the JWKS endpoint shows them. */
  publicJwks: JWK[];
}

const ALG = 'ES256';

async function newSigningKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair(ALG, { extractable: true });
  return { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: ALG, use: 'sig' };
}

function publicHalf(jwk: JWK): JWK {
  const { d: _d, ...pub } = jwk;
  void _d;
  return pub;
}

/** The keys in force, making the first one if there is none (two processes starting at once keep one). */
export async function loadSigningKeys(sql: Sql, oauthSecret: string): Promise<SigningKeys> {
  const read = () =>
    sql<{ sealed_jwk: string }[]>`select sealed_jwk from oauth_signing_keys order by created_at desc, kid`;
  let rows = await read();
  if (rows.length === 0) {
    const jwk = await newSigningKey();
    // An advisory lock makes concurrent first starts agree on one key.
    await sql.begin(async (tx) => {
      await tx`select pg_advisory_xact_lock(hashtext('oauth_signing_keys'))`;
      const [existing] = await tx`select 1 from oauth_signing_keys limit 1`;
      if (!existing)
        await tx`insert into oauth_signing_keys (kid, sealed_jwk) values (${jwk.kid!}, ${sealSecret(oauthSecret, JSON.stringify(jwk))})`;
    });
    rows = await read();
  }
  const privateJwks = rows.map((r) => JSON.parse(openSecret(oauthSecret, r.sealed_jwk)) as JWK);
  return { privateJwks, publicJwks: privateJwks.map(publicHalf) };
}
