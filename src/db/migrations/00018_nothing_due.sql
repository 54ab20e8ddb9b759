-- Issue 20: ops end a trip with the passenger on board (POST /api/ops/bookings/:ref/end), settled
-- either with what was received or with nothing due. Nothing due is still a payment record (so the
-- trip is settled once, by ops, on the record): 0 pence, method 'none', and only ever by ops.
alter table payment_records drop constraint payment_records_method_check;
alter table payment_records add constraint payment_records_method_check
  check (method in ('cash', 'card', 'payment_link', 'bank_transfer', 'account', 'none'));
alter table payment_records add constraint payment_records_nothing_due_check
  check (method <> 'none' or (amount_pence = 0 and recorded_by = 'ops'));
