-- A driver's invoice is a record they were shown and may have paid: like a payment record, never
-- edited or removed (a correction would be a new record).
create function records_immutable() returns trigger language plpgsql as $$
begin
  raise exception '% rows are immutable: % refused', tg_table_name, tg_op using errcode = 'insufficient_privilege';
end;
$$;
create trigger driver_invoices_no_update before update or delete on driver_invoices
  for each row execute function records_immutable();
