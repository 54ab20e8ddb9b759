-- How a booking's fare was reached (issue 36, item 6): the table (area, authority, first day,
-- tariff, status, provisional), the rule lines, and the distance and time it was priced on, with
-- how they were found. Kept with the booking so a receipt can show it and a later table change
-- never alters it. Null for an agreed partner fare, for bookings made before this column, and
-- after a change of fare that did not say how it was reached (never a stale one).
alter table bookings add column fare_provenance jsonb;
