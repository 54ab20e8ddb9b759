import type { Sql } from '../db/sql.js';
import { recordStaffAction, staffActionsFor, type StaffMember } from '../auth/staff.js';
import { Refusal } from '../refusal.js';
import { lockPartner, updatePartner } from './store.js';

// Ops pause and resume an operator's bridge (issue 37 item 4). A paused bridge refuses the
// operator's new requests with 403 `bridge_paused` (src/partners/intake.ts); jobs it already sent
// are kept and go on as booked: pausing stops what comes in, it cancels nothing the operator's
// passengers were promised. Every change is a staff action (who, when, why), shown in the reply.

export interface BridgeState {
  partnerId: string;
  paused: boolean;
  /** false when the bridge was already so: nothing changed and nothing new is recorded. */
  changed: boolean;
  actions: { action: BridgeAction; reason: string | null; at: Date; by: string }[];
}

const ACTIONS = { pause: 'bridge.pause', resume: 'bridge.resume' } as const;
type BridgeAction = (typeof ACTIONS)[keyof typeof ACTIONS];
const isBridgeAction = (a: string): a is BridgeAction => a === ACTIONS.pause || a === ACTIONS.resume;

export async function setBridgePaused(
  sql: Sql,
  staff: StaffMember,
  partnerId: string,
  change: { action: 'pause' | 'resume'; reason: string },
): Promise<BridgeState> {
  const paused = change.action === 'pause';
  const changed = await sql.begin(async (tx) => {
    const partner = await lockPartner(tx, partnerId);
    if (!partner) throw Refusal.notFound('partner_not_found', `No partner ${partnerId}.`);
    if (partner.kind !== 'operator')
      throw Refusal.conflict(
        'not_an_operator',
        `${partnerId} is a ${partner.kind}, not an operator: only an operator has a bridge to pause.`,
      );
    if (partner.bridgePaused === paused) return false;
    await updatePartner(tx, partnerId, { bridgePaused: paused });
    await recordStaffAction(tx, {
      staffId: staff.id,
      action: ACTIONS[change.action],
      subjectKind: 'partner',
      subjectId: partnerId,
      reason: change.reason,
    });
    return true;
  });
  const history = await staffActionsFor(sql, 'partner', partnerId);
  return {
    partnerId,
    paused,
    changed,
    actions: history.flatMap(({ action, reason, at, staff_name }) =>
      isBridgeAction(action) ? [{ action, reason, at, by: staff_name }] : [],
    ),
  };
}
