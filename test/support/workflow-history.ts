// What a booking's workflow did, for a test's timeout message: a wait that runs out says only
// "timed out", and whether the workflow never started, waited on the server or failed a task is
// what tells a slow machine from a fault.
import { bookingWorkflowId } from '../../workflows/bookings/definitions.js';
import { connectTemporal } from '../../src/temporal/connection.js';
import { testNamespace, testTemporalAddress } from './shared-servers.js';

/** The booking workflow's history as `+ms EventType` from its start (at most 80 events), or why not. */
export async function bookingHistory(ref: string): Promise<string> {
  const temporalConnection = await connectTemporal({
    address: testTemporalAddress(),
    namespace: testNamespace(),
    timeoutMs: 5_000,
  }).catch((err: unknown) => err as Error);
  if (temporalConnection instanceof Error) return `no connection to Temporal: ${temporalConnection.message}`;
  const { connection, client } = temporalConnection;
  try {
    const history = await client.workflow.getHandle(bookingWorkflowId(ref)).fetchHistory();
    const events = history.events ?? [];
    const t0 = timeMs(events[0]?.eventTime);
    const lines = events.slice(0, 80).map((e) => `+${timeMs(e.eventTime) - t0} ${eventName(e)}`);
    return `${events.length} events: ${lines.join(', ')}`;
  } catch (err) {
    return `no history: ${(err as Error).message}`;
  } finally {
    await connection.close();
  }
}

function timeMs(t: { seconds?: unknown; nanos?: number | null } | null | undefined): number {
  return t ? Number(t.seconds ?? 0) * 1000 + Math.round((t.nanos ?? 0) / 1e6) : 0;
}

/** An event's kind, from the one attributes field it carries (workflowTaskTimedOutEventAttributes: workflowTaskTimedOut). */
function eventName(event: object): string {
  const [key] = Object.entries(event).find(([k, v]) => k.endsWith('EventAttributes') && v != null) ?? ['unknown'];
  return key.replace(/EventAttributes$/, '');
}
