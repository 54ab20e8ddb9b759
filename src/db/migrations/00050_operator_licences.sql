-- Issue 40 (2): lawful sub-contracting (Local Government (Miscellaneous Provisions) Act 1976
-- ss.55A/55B). A booking of ours leaves for another operator two ways: a card to a driver of a
-- partner fleet (an operator whose drivers we dispatch), or the job handed to an exchange fleet (an
-- operator running this API elsewhere). Either way the receiving operator's licence must be on
-- file, in date at pickup, and of the kind the vehicle needs (docs/records.md, "Sub-contracting").

create table operator_licences (
  id bigint generated always as identity primary key,
  -- Whose licence: a partner fleet (partner_fleets.id) or an exchange fleet (exchange_fleets.id).
  holder_kind text not null check (holder_kind in ('partner_fleet', 'exchange_fleet')),
  holder_id text not null,
  -- The licensing authority that issued it, as the licence names it ("Manchester City Council").
  authority text not null check (length(authority) between 2 and 120),
  number text not null check (length(number) between 1 and 60),
  -- private_hire: a council's private hire operator licence, for vehicles of up to 8 passenger
  -- seats. psv: a Traffic Commissioner's PSV operator licence, for vehicles of 9 or more (a partner
  -- fleet's minibus; drivers have up to 16 seats, 00002).
  kind text not null check (kind in ('private_hire', 'psv')),
  -- Valid through this day (Europe/London), like a driver's licence.
  expires_on date not null,
  recorded_by text not null,
  recorded_at timestamptz not null default now(),
  -- A renewal under the same number moves its expiry; a new number is a new row.
  unique (holder_kind, holder_id, authority, number, kind)
);
create index operator_licences_holder on operator_licences (holder_kind, holder_id, kind, expires_on);

-- The licence a sub-contract rested on, as the booking record shows it: the holder's licence of the
-- kind given with the latest expiry ("Manchester City Council private hire operator licence
-- PHO-0042, valid to 2027-03-31"), or null when none is on file.
create function operator_licence_on_file(p_holder_kind text, p_holder_id text, p_psv boolean) returns text
language sql stable as $$
  select l.authority || ' ' || case l.kind when 'psv' then 'PSV' else 'private hire' end
         || ' operator licence ' || l.number || ', valid to ' || to_char(l.expires_on, 'YYYY-MM-DD')
    from operator_licences l
   where l.holder_kind = p_holder_kind and l.holder_id = p_holder_id
     and l.kind = case when p_psv then 'psv' else 'private_hire' end
   order by l.expires_on desc, l.id desc limit 1
$$;

-- A partner fleet's driver allocated: the record names the fleet (00049) and now its licence.
create function booking_record_operator_licence() returns trigger language plpgsql as $$
begin
  if new.kind = 'allocated' and new.operator is not null and new.operator_licence is null then
    select operator_licence_on_file('partner_fleet', d.partner_fleet_id, d.seats > 8) into new.operator_licence
      from drivers d where d.id = new.driver_id and d.tier = 'partner';
  end if;
  return new;
end $$;
create trigger booking_record_entries_operator_licence before insert on booking_record_entries
  for each row execute function booking_record_operator_licence();

-- A job handed to an exchange fleet: its licence beside its name. A booking is for at most 8
-- passengers (00002), a private hire vehicle's job, so the private hire licence is the one it rests on.
create or replace function booking_record_subcontracted() returns trigger language plpgsql as $$
begin
  insert into booking_record_entries (ref, kind, operator, operator_licence, detail)
  select new.booking_ref, 'subcontracted', f.name, operator_licence_on_file('exchange_fleet', f.id, false),
         'exchange fleet ' || f.id
    from exchange_fleets f where f.id = new.fleet_id;
  return null;
end $$;
