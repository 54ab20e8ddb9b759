// "Where exactly?" (src/pages/book-page.ts): the pickup was only a town centre or a postcode
// district, so the page asks for a full postcode or a house number and street and re-quotes with
// the answer. It moves on (to the new quote's booking page) only once the answer is precise enough;
// an answer as vague as before (the same place, or no closer) is said to be so, with what to add.
// The API's suggestions are offered when it is unsure, leaving out every place this page has
// already called too vague. Every text is set with textContent.
import { $, $button, $form, $input, button as makeButton } from './dom.js';
import {
  POSTCODE_EXAMPLE,
  VAGUE_PRECISIONS,
  placeKey,
  rank,
  vagueWhere,
  withTown,
  withTyped,
} from './pickup-precision.js';
import { quoteAgain, type QuotePlace } from './quote-again.js';

const ADD = `add the full postcode, e.g. ${POSTCODE_EXAMPLE}, or a house number and street`;
const form = $form('refine');
const input = $input('pickup_detail');
const error = $('refine-error');
const list = $('suggestions');
const button = $button('find');
const d = form.dataset;

// The answer the page stands at, and every place it has called too vague: never offered again.
let current: QuotePlace = {
  label: d.label ?? '',
  precision: d.precision ?? '',
  town: d.town || null,
  postcode_district: d.district || null,
};
const tooVague = new Set([placeKey(d.label)]);
const say = (text: string) => {
  error.textContent = text;
  error.hidden = false;
};
const isVague = (p: { precision?: string } | undefined) => VAGUE_PRECISIONS.includes(p?.precision ?? '');

async function requote(pickup: string): Promise<void> {
  error.hidden = true;
  list.replaceChildren();
  button.disabled = true;
  try {
    const { priced, reply } = await quoteAgain(d, pickup, (r) => !(r.pickup && isVague(r.pickup)));
    if (priced) return;
    const found = reply?.pickup && typeof reply.pickup.label === 'string' ? reply.pickup : null;
    if (found) {
      // Priced, but no nearer the door than a driver can use.
      const closer =
        rank(found.precision) < rank(current.precision) && placeKey(found.label) !== placeKey(current.label);
      tooVague.add(placeKey(found.label));
      say(
        closer
          ? `That only narrows it to ${vagueWhere(found)}: ${ADD}.`
          : `That still only finds ${vagueWhere(found)}: ${ADD}.`,
      );
      if (closer) current = found;
      input.focus();
      return;
    }
    const offered = (Array.isArray(reply?.suggestions) ? reply.suggestions : []).filter(
      (s) => s && typeof s.label === 'string' && !tooVague.has(placeKey(s.label)) && !isVague(s),
    );
    for (const s of offered) {
      const choice = makeButton(
        s.label + (s.town && !placeKey(s.label).includes(placeKey(s.town)) ? ` (${s.town})` : ''),
        'suggestion',
      );
      choice.addEventListener('click', () => void requote(s.label));
      list.append(choice);
    }
    if (reply?.question === 'postcode' && reply.detail) {
      // "We could not find Wilmslow Road in Rusholme. Add its postcode to ...": the street is named.
      say(reply.detail);
    } else if (offered.length > 0) {
      say(`We are not sure which place you mean. Did you mean one of these? If not, ${ADD}.`);
    } else if (reply?.code === 'address_uncertain') {
      say(`We could not place that any closer than ${vagueWhere(current)}: ${ADD}.`);
    } else if (!reply || reply.code === 'address_not_found') {
      say(
        `We could not find that place: try the full postcode, e.g. ${POSTCODE_EXAMPLE}, or a house number and street.`,
      );
    } else {
      // Anything else (too many tries, a trip we cannot price) is the API's to say.
      say(reply.detail || 'Could not get a price. Please try again.');
    }
  } catch {
    say('Could not reach Direct Taxi. Check your connection and try again.');
  } finally {
    button.disabled = false;
  }
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const detail = input.value.trim();
  if (!detail) {
    say(`Type the full postcode, e.g. ${POSTCODE_EXAMPLE}, or a house number and street.`);
    input.focus();
    return;
  }
  void requote(withTyped(withTown(detail, d.town), d.typed));
});
