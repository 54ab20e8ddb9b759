-- Issue 37, item 2 (src/http/idempotency.ts): requests under one Idempotency-Key all get the first
-- one's answer. The attempt running under a key is named (attempt: a random id of the request that
-- took it, counted by the booking allowance), and when it ends without a reply to keep, its answer
-- (a refusal, the allowance's 429 included) is kept beside it for the requests that were waiting
-- for it. A request that comes after that failure takes a new attempt, and is counted.
alter table idempotency_keys add column attempt text, add column failed_status integer, add column failed_body jsonb;
