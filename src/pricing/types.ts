import type { GeoLocation, RouteEstimate } from '../geo/types.js';

/** v1 quote vehicle enumeration (spec 2.6); the simple endpoints use a subset. */
export const VEHICLE_TYPES = [
  'saloon',
  'estate',
  'executive',
  'luxury',
  '5seater',
  '6seater',
  '7seater',
  'mpv',
  'wav',
] as const;
export type VehicleType = (typeof VEHICLE_TYPES)[number];
export const SIMPLE_VEHICLE_TYPES = ['saloon', 'estate', 'executive', 'luxury', 'mpv', 'wav'] as const;

/** An approved driver or partner rate, stored with who approved it (see migrations). */
export interface RateOverride {
  id: string;
  scope: 'driver' | 'partner';
  subjectId: string;
  /** Adjustment of the metered fare in basis points: -1000 = 10 % below the tariff. */
  adjustmentBasisPoints: number;
  /** Optional floor replacing the tariff's minimum fare. */
  minimumFarePence: number | null;
  approvedBy: string;
  approvedAt: string;
}

export interface PriceRequest {
  pickup: GeoLocation;
  dropoff: GeoLocation;
  route: RouteEstimate;
  /** The pickup instant (UTC). Converted to Europe/London before a tariff period is chosen. */
  departAt: Date;
  vehicleType: VehicleType;
  passengers: number;
  meetAndGreet: boolean;
  worldwide: boolean;
  override?: RateOverride | null;
  /**
   * An assistance dog travels (docs/accessibility.md). Never priced: it is only itemised at zero,
   * so the passenger sees that nothing was added. A wheelchair user's need is the 'wav' class.
   */
  assistanceDog?: boolean;
}

export interface AppliedRule {
  /** Stable machine code, e.g. "tariff_period", "night_rate", "bank_holiday", "meet_and_greet", "vehicle_class". */
  code: string;
  description: string;
  /** Money this rule added (or, when negative, removed); 0 for informational rules such as the period chosen. */
  amountPence: number;
}

export interface TariffSource {
  areaId: string;
  authority: string;
  /** Name of the period used, e.g. "Tariff 3 (night / public holiday)". */
  period: string;
  effectiveFrom: string;
  status: string;
  provisional: boolean;
  sources: string[];
}

export interface PriceResult {
  totalPence: number;
  currency: 'GBP';
  /** The metered part before extras and surcharges. */
  meterPence: number;
  rules: AppliedRule[];
  tariff: TariffSource;
  /** The pickup time in Europe/London, ISO 8601 with offset. */
  localDepartAt: string;
}

/** Business rejection from pricing; the HTTP layer maps code to a status (422). */
export class PricingError extends Error {
  constructor(
    readonly code: 'outside_service_area' | 'no_tariff',
    message: string,
  ) {
    super(message);
    this.name = 'PricingError';
  }
}
