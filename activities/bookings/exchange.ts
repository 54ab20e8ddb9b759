import { ApplicationFailure, log } from '@temporalio/activity';
import { loadBooking } from '../../src/bookings/store.js';
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
import { EXCHANGE_FAILURE, type ExchangeAction, type ExchangeSendResult } from '../../src/model/bookings.js';

// The booking workflow's hands for exchange fleets (docs/exchange.md): which fleet is next, sending it
// the job (new, amend, cancel) over its own API, and writing what its events said to our record.
// Each is idempotent: the fleet's intake answers a repeated job as a duplicate; the records are
// conditional writes.

export function createExchangeActivities(deps: { sql: Sql; secretsKey: string }) {
  const { sql, secretsKey } = deps;
  return {
    async nextExchangeFleet(q: { ref: string; tried: string[] }): Promise<{ fleetId: string; name: string } | null> {
      const f = await nextFleetFor(sql, q.ref, q.tried);
      return f ? { fleetId: f.id, name: f.name } : null;
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
      if (s.action === 'new') await markJobSent(sql, s.ref, s.fleetId, answer.remoteRef);
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
