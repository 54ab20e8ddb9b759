import { z } from 'zod';

// The shape of data/tariffs/<areaId>.json. Councils publish tables, not code, so every number
// a quote depends on lives in those files; this schema is what stops a typo in them from
// silently turning into a wrong fare.

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD');
/** Local wall-clock time; "24:00" lets a window run to the end of its day. */
const clockTime = z.string().regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, 'expected HH:MM (00:00-24:00)');
/** A wall-clock instant in any year, e.g. "12-24T20:00" for 8 pm on Christmas Eve. */
const annualInstant = z
  .string()
  .regex(/^(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d$/, 'expected MM-DDTHH:MM');
const pence = z.number().int().nonnegative();
const provisional = z.boolean().default(false);

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const BANK_HOLIDAY_DIVISIONS = ['england-and-wales', 'scotland', 'northern-ireland'] as const;
export type BankHolidayDivision = (typeof BANK_HOLIDAY_DIVISIONS)[number];

/**
 * When a period or supplement applies, in Europe/London local time. `code` overrides the owner's
 * rule code for this way of matching (London Tariff 3 is "bank_holiday" on a holiday but
 * "night_rate" at 23:00 on a Tuesday).
 */
export const ConditionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('always'), code: z.string().optional() }).strict(),
  z
    .object({
      type: z.literal('weekly'),
      /** Days on which the window starts; a window whose `to` is not after `from` ends the next day. */
      days: z.array(z.enum(WEEKDAYS)).min(1),
      from: clockTime,
      to: clockTime,
      code: z.string().optional(),
    })
    .strict(),
  z
    .object({
      type: z.literal('bank_holiday'),
      /**
       * Without from/to the whole holiday date matches. With them the window starts on the holiday
       * at `from`; a `to` not after `from` runs into the next morning, because Sheffield's and
       * Southampton's holiday charges run "07:00 to 07:00 the following day" (or 06:00-06:00),
       * and Nottingham's holiday nights need only part of the date.
       */
      from: clockTime.optional(),
      to: clockTime.optional(),
      code: z.string().optional(),
    })
    .strict()
    .refine((c) => (c.from === undefined) === (c.to === undefined), {
      message: 'bank_holiday: give both from and to, or neither',
    }),
  z
    .object({
      type: z.literal('annual'),
      /** Start inclusive, end exclusive; a window whose end is earlier in the year wraps past New Year. */
      from: annualInstant,
      to: annualInstant,
      code: z.string().optional(),
    })
    .strict(),
]);
export type Condition = z.infer<typeof ConditionSchema>;

/**
 * One meter scale. Distances are in `distanceUnit` exactly as the council prints them (yards stay
 * yards) so the file can be checked against the published table line by line.
 */
export const RateSchema = z
  .object({
    name: z.string().min(1),
    distanceUnit: z.enum(['m', 'yd']),
    flagFallPence: pence,
    initialDistance: z.number().nonnegative(),
    /** null: the table gives no initial time, so time units run from the start of the hire. */
    initialSeconds: z.number().nonnegative().nullable(),
    unitPence: z.number().int().positive(),
    unitDistance: z.number().positive(),
    /** null: the council publishes no waiting/time rate, so the meter is distance only. */
    unitSeconds: z.number().positive().nullable(),
    provisional,
    note: z.string().optional(),
  })
  .strict()
  .refine((r) => r.unitSeconds !== null || r.initialSeconds === null, {
    message: 'initialSeconds without unitSeconds makes no sense',
  });
export type Rate = z.infer<typeof RateSchema>;

export const PeriodSchema = z
  .object({
    id: z.string().min(1),
    /** Shown to passengers, e.g. "Tariff 3 (night / public holiday)". */
    name: z.string().min(1),
    rate: z.string().min(1),
    /** Whole-meter multiplier such as Manchester's "night rate + 50 %" (15000). */
    multiplierBasisPoints: z.number().int().positive().default(10000),
    /** Rule code for the extra this period costs over the base period, e.g. "night_rate". */
    code: z.string().optional(),
    provisional,
    when: z.array(ConditionSchema).min(1),
  })
  .strict();
export type Period = z.infer<typeof PeriodSchema>;

export const SupplementSchema = z
  .object({
    id: z.string().min(1),
    code: z.string().min(1),
    name: z.string().min(1),
    amountPence: pence,
    /** South Glos charges its evening supplement when a hire begins OR ends in the window. */
    appliesAt: z.enum(['start', 'start_or_end']),
    /** Only the first matching supplement of a group applies (a bank-holiday extra replaces the night one). */
    group: z.string().optional(),
    /**
     * Period ids during which the supplement may apply; absent = any period. Newport's holiday
     * £1.50 is "extra on Tariff 1 / Tariff 2", so it must not ride on the festive double fare.
     */
    periods: z.array(z.string().min(1)).min(1).optional(),
    provisional,
    when: z.array(ConditionSchema).min(1),
  })
  .strict();
export type Supplement = z.infer<typeof SupplementSchema>;

export const ExtraSchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.literal('per_passenger'),
      name: z.string().min(1),
      /** Passengers up to this number travel free, e.g. 1 = "each passenger additional to the hirer". */
      beyond: z.number().int().nonnegative(),
      amountPence: pence,
      provisional,
    })
    .strict(),
  z
    .object({
      type: z.enum(['airport_dropoff', 'airport_pickup']),
      name: z.string().min(1),
      iata: z.array(z.string().regex(/^[A-Z]{3}$/)).min(1),
      amountPence: pence,
      provisional,
    })
    .strict(),
  z
    .object({
      // One flat charge per hire once the group reaches a size (Cambridge: £3.50 for 5 or more),
      // which per_passenger cannot express without charging it again for every extra head.
      type: z.literal('group_flat'),
      name: z.string().min(1),
      minPassengers: z.number().int().positive(),
      amountPence: pence,
      provisional,
    })
    .strict(),
  z
    .object({
      // Kept so the file mirrors the council's whole table; the engine never adds these.
      type: z.literal('not_applied'),
      name: z.string().min(1),
      amountPence: pence.nullable(),
      reason: z.string().min(1),
    })
    .strict(),
]);
export type Extra = z.infer<typeof ExtraSchema>;

export const LargeGroupSchema = z
  .object({
    name: z.string().min(1),
    minPassengers: z.number().int().positive(),
    /** Added as a share of the metered fare: 5000 = +50 %. */
    basisPoints: z.number().int().positive(),
    provisional,
  })
  .strict();
export type LargeGroup = z.infer<typeof LargeGroupSchema>;

export const SwitchRateSchema = z
  .object({
    name: z.string().min(1),
    afterMeters: z.number().positive(),
    /** Id of the rate whose unit price, distance and time apply beyond the switch point. */
    rate: z.string().min(1),
    /**
     * Running rate id -> rate beyond the switch, for tables whose units beyond it differ by tariff
     * (Nottingham: 160 yd by day, 146.67 yd at night). Rates not listed switch to `rate`.
     */
    byRate: z.record(z.string(), z.string().min(1)).optional(),
    /**
     * Running rate id -> switch point in metres, for tables whose change of rate comes at a fare
     * rather than a distance, so at a different distance on each tariff (Leeds: "up to £6.00" by
     * day, "up to £7.20" late at night). Rates not listed switch at `afterMeters`.
     */
    afterMetersByRate: z.record(z.string(), z.number().positive()).optional(),
    provisional,
  })
  .strict();
export type SwitchRate = z.infer<typeof SwitchRateSchema>;

/** Where the switch point lies while `runningRate` is on the meter, in metres. */
export function switchAfterMeters(switchRate: SwitchRate, runningRate: string): number {
  return switchRate.afterMetersByRate?.[runningRate] ?? switchRate.afterMeters;
}

/** The rate that applies beyond the switch point while `runningRate` is on the meter. */
export function switchRateId(switchRate: SwitchRate, runningRate: string): string {
  return switchRate.byRate?.[runningRate] ?? switchRate.rate;
}

export const TARIFF_STATUSES = [
  'in_force',
  'in_force_reported',
  'approved_reported',
  'recommended',
  'provisional',
  'historic',
  'service_default',
  /**
   * Advertised for objections but adoption never confirmed: not a legal maximum, so the live
   * tariff book refuses it (see loadTariffBook); such tables are kept in data/tariffs/proposed/.
   */
  'proposed',
] as const;

export const TariffVersionSchema = z
  .object({
    effectiveFrom: isoDate,
    status: z.enum(TARIFF_STATUSES),
    /** True when the version's fares are derived or assumed rather than read from a published table. */
    provisional: z.boolean(),
    sources: z.array(z.url()).min(1),
    gaps: z.array(z.string()),
    derivation: z.array(z.string()).optional(),
    notes: z.array(z.string()).optional(),
    /** "pickup_country" is for the national default, which has no home nation of its own. */
    bankHolidayDivision: z.enum([...BANK_HOLIDAY_DIVISIONS, 'pickup_country']),
    minimumFarePence: pence.nullable(),
    rates: z.record(z.string(), RateSchema),
    /** The ordinary (day) period; other periods' extra cost is itemised against it. */
    basePeriod: z.string().min(1),
    /** First match wins, so holidays and festive windows come before ordinary nights and days. */
    periods: z.array(PeriodSchema).min(1),
    switchRate: SwitchRateSchema.nullable(),
    supplements: z.array(SupplementSchema),
    extras: z.array(ExtraSchema),
    largeGroup: LargeGroupSchema.nullable(),
  })
  .strict()
  .superRefine((v, ctx) => {
    const rateIds = new Set(Object.keys(v.rates));
    const periodIds = new Set<string>();
    for (const p of v.periods) {
      if (!rateIds.has(p.rate)) ctx.addIssue({ code: 'custom', message: `period ${p.id} uses unknown rate ${p.rate}` });
      if (periodIds.has(p.id)) ctx.addIssue({ code: 'custom', message: `duplicate period id ${p.id}` });
      periodIds.add(p.id);
    }
    if (!periodIds.has(v.basePeriod))
      ctx.addIssue({ code: 'custom', message: `basePeriod ${v.basePeriod} is not a period` });
    const last = v.periods[v.periods.length - 1];
    if (!last?.when.some((c) => c.type === 'always')) {
      ctx.addIssue({ code: 'custom', message: 'the last period must match "always" so every instant has a tariff' });
    }
    for (const s of v.supplements) {
      for (const id of s.periods ?? []) {
        if (!periodIds.has(id))
          ctx.addIssue({ code: 'custom', message: `supplement ${s.id} names unknown period ${id}` });
      }
    }
    if (v.switchRate) {
      for (const [from, to] of [['rate', v.switchRate.rate] as const, ...Object.entries(v.switchRate.byRate ?? {})]) {
        if (from !== 'rate' && !rateIds.has(from))
          ctx.addIssue({ code: 'custom', message: `switchRate.byRate names unknown rate ${from}` });
        if (!rateIds.has(to)) ctx.addIssue({ code: 'custom', message: `switchRate uses unknown rate ${to}` });
      }
      for (const from of Object.keys(v.switchRate.afterMetersByRate ?? {})) {
        if (!rateIds.has(from))
          ctx.addIssue({ code: 'custom', message: `switchRate.afterMetersByRate names unknown rate ${from}` });
      }
    }
  });
export type TariffVersion = z.infer<typeof TariffVersionSchema>;

export const TariffAreaSchema = z
  .object({
    areaId: z.string().regex(/^[a-z0-9-]+$/),
    authority: z.string().min(1),
    area: z.string().min(1),
    /** "service_default" marks the national fallback: our own moderate values, not any council's table. */
    kind: z.enum(['council', 'service_default']),
    versions: z.array(TariffVersionSchema).min(1),
  })
  .strict()
  .superRefine((a, ctx) => {
    for (let i = 1; i < a.versions.length; i++) {
      if (a.versions[i - 1]!.effectiveFrom >= a.versions[i]!.effectiveFrom) {
        ctx.addIssue({
          code: 'custom',
          message: `${a.areaId}: versions must be in strictly increasing effectiveFrom order`,
        });
      }
    }
  });
export type TariffArea = z.infer<typeof TariffAreaSchema>;
