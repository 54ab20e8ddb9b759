-- Issue 37: a key's own hourly quote allowance (null: QUOTE_RATE_LIMIT_PER_HOUR, 30 as spec 4.4 says).
-- Set with `npm run api-key:create -- --quotes-per-hour N` (docs/decisions.md, "Quote allowances").
alter table api_keys add column quotes_per_hour integer check (quotes_per_hour is null or quotes_per_hour > 0);
