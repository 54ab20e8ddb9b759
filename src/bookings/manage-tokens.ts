import { createHmac } from 'node:crypto';
import { hashSecret } from '../auth/secrets.js';
import type { Sql } from '../db/sql.js';
import { insertManageTokenOnce } from './ownership-store.js';

// A manage token lets whoever holds it look a booking up and cancel it (src/bookings/ownership.ts
// issues them to the caller that made the booking). Only their hashes are stored.

export const MANAGE_TOKEN_PREFIX = 'bmt_';

/**
 * The manage token in the link texted to the booking's phone when it is booked, so whoever booked
 * (on a page, by an assistant, without an email) can cancel from the text. Derived from the
 * reference with the service's secret, so a retried activity texts the same link and stores it
 * once; stored hashed like any other, and revoked with them when the booking is claimed.
 */
export async function textedManageToken(sql: Sql, secret: string, ref: string): Promise<string> {
  const token =
    MANAGE_TOKEN_PREFIX + createHmac('sha256', secret).update(`manage:${ref}:booked-text`).digest('base64url');
  await insertManageTokenOnce(sql, { tokenHash: hashSecret(token), ref, holder: 'phone' });
  return token;
}
