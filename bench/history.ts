// What a workflow history is made of: each event named by its type, with the activity, local
// activity, signal or update it belongs to, so a change to the booking workflow can be read in the
// events it adds or saves.
import proto from '@temporalio/proto';

const { temporal } = proto;

type HistoryEvent = proto.temporal.api.history.v1.IHistoryEvent;

export function eventKindName(e: HistoryEvent): string {
  const type = temporal.api.enums.v1.EventType[e.eventType ?? 0] ?? String(e.eventType);
  const kind = type.replace(/^EVENT_TYPE_/, '').toLowerCase();
  const named = (name: string | null | undefined) => (name ? `${kind} ${name}` : kind);
  if (e.activityTaskScheduledEventAttributes) return named(e.activityTaskScheduledEventAttributes.activityType?.name);
  if (e.workflowExecutionSignaledEventAttributes) return named(e.workflowExecutionSignaledEventAttributes.signalName);
  if (e.workflowExecutionUpdateAcceptedEventAttributes)
    return named(e.workflowExecutionUpdateAcceptedEventAttributes.acceptedRequest?.input?.name);
  if (e.markerRecordedEventAttributes) return named(localActivityType(e.markerRecordedEventAttributes));
  return kind;
}

/** A local activity's marker carries its type in the "data" detail, as JSON (the SDK's own encoding). */
function localActivityType(m: proto.temporal.api.history.v1.IMarkerRecordedEventAttributes): string | null {
  const payload = m.details?.data?.payloads?.[0]?.data;
  if (!payload) return m.markerName ?? null;
  try {
    const parsed = JSON.parse(Buffer.from(payload).toString('utf8')) as { activity_type?: string };
    return parsed.activity_type ?? m.markerName ?? null;
  } catch {
    return m.markerName ?? null;
  }
}
