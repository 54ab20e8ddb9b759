import type { Config } from '../config.js';
import { bookingWorkflowId } from '../../workflows/bookings/definitions.js';

/** A booking's workflow history in the Temporal Web UI: {ui}/namespaces/{ns}/workflows/booking:{ref}. */
export function temporalUiBookingUrl(
  config: Pick<Config, 'TEMPORAL_UI_URL' | 'TEMPORAL_NAMESPACE'>,
  ref: string,
): string {
  return `${config.TEMPORAL_UI_URL}/namespaces/${encodeURIComponent(config.TEMPORAL_NAMESPACE)}/workflows/${bookingWorkflowId(encodeURIComponent(ref))}`;
}
