-- Issue 33, items 5 and 7 (src/bookings/ownership.ts, docs/security/threat-model.md "Who a booking
-- belongs to").

-- A claim is final. Each claim of a booking through its phone bumps its generation; the link in a
-- booking email (src/bookings/confirm-link.ts) names the booking, the mailbox it was sent to and the
-- generation it was sent in, so a link sent before the claim confirms nothing and opens nothing.
alter table bookings add column claim_generation integer not null default 0;

-- Shared API keys share no bookings' tokens. The request that made a booking under an API key, by
-- its Idempotency-Key (a digest of the key and its scope, src/bookings/request-owner.ts): only that
-- request, retried, gets the booking again with a manage token; another request under the same API
-- key for the same trip gets the booking without one. Null when the request carried no
-- Idempotency-Key, and after a claim (the owner is then 'claimed', which no caller is).
alter table booking_requests add column owner_request text;
