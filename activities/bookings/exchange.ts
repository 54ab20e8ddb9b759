import { ApplicationFailure, log } from '@temporalio/activity';
import { loadBooking } from '../../src/bookings/store.js';
import { recordFleetPassedOver } from '../../src/dispatch/store.js';
import type { Sql } from '../../src/db/sql.js';
import { FleetUnavailable, postJob } from '../../src/exchange/client.js';
import { exchangeJob } from '../../src/exchange/job.js';
import { screenedFleetDriver } from '../../src/screening/driver-details.js';
import {
  applyRemoteStatus,
  fleetWithSigningSecret,
  markJobEnded,
  markJobSent,
  nextFleetFor,
  type ExchangeDriver,
} from '../../src/exchange/store.js';
import { subcontractRefusal, type SubcontractRefusal } from '../../src/model/operator-licences.js';
import { licencesOnFile } from '../../src/operator-licences/store.js';
import {
  EXCHANGE_FAILURE,
  passengerHearsFromUs,
  type PassengerNews,
  type ExchangeAction,
  type ExchangeSendResult,
} from '../../src/model/bookings.js';

// The booking workflow's hands for exchange fleets (docs/exchange.md): which fleet is next, sending it
// the job (new, amend, cancel) over its own API, and writing what its events said to our record.
// Each is idempotent: the fleet's intake answers a repeated job as a duplicate; the records are
// conditional writes.

export function createExchangeActivities(deps: {
  sql: Sql;
  secretsKey: string;
  /** The tellPassenger activity (notifications.ts): who provides the ride, once a fleet has the job. */
  tellPassengerNews?: (t: { ref: string; news: PassengerNews }) => Promise<void>;
}) {
  const { sql, secretsKey, tellPassengerNews } = deps;
  // A booking is for at most eight passengers (a private hire vehicle's job), so the fleet needs its
  // private hire operator licence, valid at pickup.
  const exchangeLicenceRefusal = async (fleetId: string, b: { pickup_at: Date }) =>
    subcontractRefusal(await licencesOnFile(sql, 'exchange_fleet', fleetId), 'private_hire', {
      pickupAt: b.pickup_at,
      now: new Date(),
    });
  return {
    /**
     * The next fleet to ask, and why it may not be given the job (its operator licence, checked at
     * the booking's pickup), or null when none is left. A fleet refused is named so the decision log
     * says why it was passed over.
     */
    async nextExchangeFleet(q: {
      ref: string;
      tried: string[];
    }): Promise<{ fleetId: string; name: string; refusal: SubcontractRefusal | null } | null> {
      const f = await nextFleetFor(sql, q.ref, q.tried);
      if (!f) return null;
      const refusal = await exchangeLicenceRefusal(f.id, await loadBooking(sql, q.ref));
      if (refusal) await recordFleetPassedOver(sql, q.ref, f.id, refusal);
      return { fleetId: f.id, name: f.name, refusal };
    },

    /**
     * One job to the fleet. An unreachable fleet (network, 5xx, 429, 401) is retried by the caller's
     * policy; a fleet that refuses the job answers `rejected`, recorded, never retried.
     */
    async sendExchangeJob(s: { ref: string; fleetId: string; action: ExchangeAction }): Promise<ExchangeSendResult> {
      const fleet = await fleetWithSigningSecret(sql, secretsKey, s.fleetId);
      if (!fleet) return { outcome: 'rejected', code: 'fleet_not_registered' };
      const booking = await loadBooking(sql, s.ref);
      // One hop: a job that came from a fleet is handed to none, whatever asked (nextExchangeFleet
      // already offers it no fleet).
      if (s.action === 'new' && booking.exchange_origin) {
        log.warn("an exchange fleet's job is never handed on", {
          ref: s.ref,
          fleetId: s.fleetId,
          origin: booking.exchange_origin,
        });
        return { outcome: 'rejected', code: 'exchange_job_not_handed_on' };
      }
      // Never a new job to a fleet whose licence does not cover it, whichever workflow asks (0.4.0's
      // does not check nextExchangeFleet's refusal): refused here, before anything is recorded as sent.
      if (s.action === 'new') {
        const refusal = await exchangeLicenceRefusal(s.fleetId, booking);
        if (refusal) {
          log.warn('an exchange fleet without a licence for the job is never handed it', {
            ref: s.ref,
            fleetId: s.fleetId,
            refusal,
          });
          return { outcome: 'rejected', code: refusal };
        }
      }
      // Recorded before it is sent: the fleet's first events can come back before its answer does.
      if (s.action === 'new') await markJobSent(sql, s.ref, s.fleetId, null);
      let answer;
      try {
        answer = await postJob(fleet, exchangeJob(booking, s.action));
      } catch (err) {
        if (err instanceof FleetUnavailable) throw ApplicationFailure.retryable(err.message, EXCHANGE_FAILURE);
        throw err;
      }
      if (answer.outcome === 'rejected') {
        log.warn('exchange fleet refused a job', {
          ref: s.ref,
          fleetId: s.fleetId,
          action: s.action,
          code: answer.code,
        });
        if (s.action === 'new') await markJobEnded(sql, s.ref, s.fleetId, 'refused', answer.code);
        return { outcome: 'rejected', code: answer.code };
      }
      if (s.action === 'new') {
        await markJobSent(sql, s.ref, s.fleetId, answer.remoteRef);
        // The passenger is told who now provides their ride. Best effort: a text that fails must not
        // make the hand-over look failed (the workflow would take the job back from the fleet).
        if (tellPassengerNews && passengerHearsFromUs(booking.source)) {
          await tellPassengerNews({ ref: s.ref, news: { kind: 'provided_by', fleetId: s.fleetId } }).catch(
            (err: unknown) =>
              log.warn('the passenger could not be told which fleet provides their ride', {
                ref: s.ref,
                fleetId: s.fleetId,
                error: String(err),
              }),
          );
        }
      }
      return { outcome: 'accepted', code: answer.code };
    },

    /** The fleet no longer holds the job: gave it back, was unreachable, or we cancelled it there. */
    async endExchangeJob(e: {
      ref: string;
      fleetId: string;
      state: 'released' | 'cancelled' | 'failed';
      reason?: string | null;
    }): Promise<void> {
      await markJobEnded(sql, e.ref, e.fleetId, e.state, e.reason ?? null);
    },

    /** What the fleet's event said, written with our booking's status (null: the status stays). */
    async applyExchangeStatus(u: {
      ref: string;
      fleetId: string;
      sequence: number;
      remoteStatus: string;
      status: string | null;
      driver: ExchangeDriver | null;
    }): Promise<void> {
      // Screened at the hook; again here for events taken before that (they are in workflow histories).
      await applyRemoteStatus(sql, { ...u, driver: screenedFleetDriver(u.driver) });
    },
  };
}
