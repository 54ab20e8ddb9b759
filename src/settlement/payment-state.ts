import { NOTHING_DUE, type BookingStatus } from '../model/bookings.js';

// A booking's payment state, derived from its payment records (never stored and overwritten):
//   pay_driver_on_completion  the trip is ahead or under way; the passenger pays the driver at the end
//   awaiting_settlement       the trip completed; the driver has not yet confirmed what was received
//   paid                      a payment record is in force
//   not_due                   cancelled, a passenger no-show, or ended by ops with nothing due
export type PaymentState = 'pay_driver_on_completion' | 'awaiting_settlement' | 'paid' | 'not_due';
export const PAYMENT_STATES: readonly PaymentState[] = [
  'pay_driver_on_completion',
  'awaiting_settlement',
  'paid',
  'not_due',
];

export function paymentState(b: {
  status: BookingStatus;
  paid_pence: number | null;
  paid_method?: string | null;
}): PaymentState {
  if (b.paid_pence !== null) return b.paid_method === NOTHING_DUE ? 'not_due' : 'paid';
  if (b.status === 'completed') return 'awaiting_settlement';
  if (b.status === 'cancelled' || b.status === 'no_show') return 'not_due';
  return 'pay_driver_on_completion';
}
