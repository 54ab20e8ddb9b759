import { findBooking } from '../bookings/store.js';
import { Refusal } from '../refusal.js';
import type { JobLookup } from '../schemas/partner-job.js';
import type { Services } from '../services.js';
import { latestInboxRow } from './inbox-store.js';
import { findPartnerJob, type Partner } from './store.js';

// A sender looks one of its jobs up by its own jobRef (issue 22): what became of a job answered
// `processing`, or of one whose reply was lost. Only the sender's own references: another sender's
// jobRef is as good as not there (404), whoever asks.

export async function lookUpJob(
  s: Pick<Services, 'sql' | 'partnerJobs'>,
  partner: Partner,
  jobRef: string,
): Promise<JobLookup> {
  const record = await findPartnerJob(s.sql, partner.id, jobRef);
  // A job in the inbox, or taken in by a workflow that has not yet written its record: its
  // reference says what it will be booked as (src/partners/inbox-store.ts).
  const waiting = await latestInboxRow(s.sql, partner.id, jobRef);
  const lastJob = waiting
    ? {
        action: waiting.action,
        outcome: waiting.outcome?.outcome ?? null,
        code: waiting.outcome?.code ?? null,
        message: waiting.outcome?.message ?? null,
      }
    : null;
  if (!record || (!record.bookingRef && record.state === 'pending' && !record.held && waiting && !waiting.done)) {
    if (waiting ? !waiting.done : await s.partnerJobs.isRunning(partner.id, jobRef))
      return {
        jobRef,
        state: 'processing',
        bookingReference: waiting?.bookingRef ?? null,
        bookingStatus: null,
        pickupAt: null,
        farePence: null,
        driver: null,
        lastJob,
      };
    if (!record) throw Refusal.notFound('job_not_found', `No job ${jobRef} from you.`);
  }
  const booking = record.bookingRef ? await findBooking(s.sql, record.bookingRef) : null;
  const state =
    record.state === 'live'
      ? 'booked'
      : record.state === 'cancelled'
        ? 'cancelled'
        : record.held
          ? 'held'
          : 'processing';
  return {
    jobRef,
    state,
    bookingReference: record.bookingRef,
    bookingStatus: booking?.status ?? null,
    pickupAt: booking ? booking.pickup_at.toISOString() : null,
    farePence: booking?.fare_pence ?? null,
    driver: booking?.d_name
      ? { name: booking.d_name, vehicle: booking.d_vehicle ?? '', plate: booking.d_plate ?? '' }
      : null,
    lastJob,
  };
}
