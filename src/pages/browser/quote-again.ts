// Both ways the booking page prices the trip again (book-requote.ts: a new price for an expired
// quote; book-refine.ts: a more exact pickup) ask for a quote with the page's trip, held in the
// data- attributes of its button or form, and go to the new quote's booking page once it is priced
// (and, when `accept` is given, only if it accepts the priced reply); otherwise they have the
// API's reply (null when it was not JSON) to show.
import { replyJson, type Problem } from './dom.js';

/** The trip as the page's data- attributes carry it (src/pages/book-page.ts). */
export interface TripData {
  dropoff?: string;
  vehicleType?: string;
  passengers?: string;
  meetAndGreet?: string;
  worldwide?: string;
  departAt?: string;
}

export interface QuotePlace {
  label: string;
  precision: string;
  town?: string | null;
  postcode_district?: string | null;
}

export type QuoteReply = Problem & {
  booking_url?: string;
  pickup?: QuotePlace;
  suggestions?: (QuotePlace & { label: string })[];
  /** "postcode": a house number on a street the service cannot place; the detail names it. */
  question?: string;
};

/** The quote request for the page's trip from `pickup`. */
export function quoteRequest(d: TripData, pickup: string): Record<string, unknown> {
  return {
    pickup,
    dropoff: d.dropoff,
    vehicleType: d.vehicleType,
    passengers: Number(d.passengers),
    meetAndGreet: d.meetAndGreet === 'true',
    worldwide: d.worldwide === 'true',
    ...(d.departAt ? { departAt: d.departAt } : {}),
  };
}

export async function quoteAgain(
  d: TripData,
  pickup: string,
  accept?: (reply: QuoteReply) => boolean,
): Promise<{ priced: boolean; reply: QuoteReply | null }> {
  const res = await fetch('/api/public/v1/quote', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(quoteRequest(d, pickup)),
  });
  const reply = await replyJson<QuoteReply>(res);
  if (res.ok && reply && typeof reply.booking_url === 'string' && (!accept || accept(reply))) {
    location.assign(reply.booking_url);
    return { priced: true, reply };
  }
  return { priced: false, reply };
}
