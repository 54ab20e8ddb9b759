-- Issue 37, item 2: retries always get their booking back, and never a second ride
-- (src/bookings/request-owner.ts, src/http/idempotency.ts, docs/decisions.md "What a retry gets back").

-- The request that made a booking, as it was sent: a digest of its body (canonical JSON, the
-- digest an anonymous Idempotency-Key is scoped by) and the address it came from (IPv6 by its /64).
-- The same body again redeeming the same quote, or from the same address within minutes, is that
-- caller's retry: it gets the booking's reference and status, never a manage token. Null for
-- requests made before this release, for partner jobs, and after a claim.
alter table booking_requests add column owner_body_hash text, add column owner_address text;

-- An Idempotency-Key's attempt in progress: while one request under the key is making the booking,
-- the others with the same body wait for its reply instead of making it again (or being refused by
-- an allowance that counted each attempt). started_at is when the running attempt began (null when
-- none runs); failed_at when the last attempt ended without a reply to keep (the next one runs again).
alter table idempotency_keys add column started_at timestamptz, add column failed_at timestamptz;
