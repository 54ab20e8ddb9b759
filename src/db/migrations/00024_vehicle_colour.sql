-- Issue 23, item 5: the passenger's tracking page names the car as a passenger looks for it in the
-- street: its colour, make and model, and its registration (vehicle_registration, migration 00007),
-- not the council's licence plate number. The colour is what the driver said when applying
-- (optional, held to letters, spaces and a little punctuation by src/schemas/drivers.ts).
alter table drivers add column vehicle_colour text;
