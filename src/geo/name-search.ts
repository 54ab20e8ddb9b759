// Finds the entry a passenger most likely means by a name: exact aliases first, then the name
// split from trailing words, then fuzzy (typo-tolerant) matching. Scores from alias-rules.ts
// are adjusted for intent ("airport", "station") and qualifiers (", Bristol", ", Wales").
import type { FuzzyHit, Gazetteer } from './gazetteer.js';
import type { AliasRef, GazetteerEntry } from './gazetteer-entry.js';
import { wordsAlign } from './edit-distance.js';
import { haversineMeters } from './haversine.js';
import { containsWords, tokens } from './normalise-text.js';
import { isStreetWord, nameVariants, withoutIntentWords, type Intent, type QueryText } from './query-text.js';

export interface NameMatch {
  entry: GazetteerEntry;
  confidence: number;
}

interface Candidate {
  ref: AliasRef;
  distance: number;
}

const INTENT_BONUS = 100;
// Enough for "Newport, Isle of Wight" to beat the city of Newport; less than an explicit
// "airport"/"station", which says what the passenger wants rather than where.
const QUALIFIER_BONUS = 80;
const TOWN_TYPES = new Set(['City', 'Town', 'Suburban Area']);
const STREET = /\b(street|st|road|rd|lane|ln|avenue|ave|close|drive|dr|way|crescent|terrace|gardens|mews|approach)$/;
const PER_EDIT_PENALTY = 30;
// A qualifier town names the area a place is in if the place is within this distance of it
// ("Yate, Bristol": Yate is 15 km from Bristol but in South Gloucestershire).
const QUALIFIER_TOWN_RADIUS_M = 30_000;
const POINT_IN_TOWN_RADIUS_M = 12_000;
// Two different answers closer than this are the same place to a taxi driver (a town and its
// station), so their tie is not an ambiguity.
const SAME_PLACE_M = 5_000;
const AMBIGUITY_MARGIN = 5;
const MANY_NAMESAKES = 2;
/** A town across the sea this much less prominent is still a likely meaning of its name. */
const OVER_SEA_MARGIN = 30;
/** Great Britain, Northern Ireland and each Crown dependency: a taxi does not cross between them. */
function landOf(entry: GazetteerEntry): string {
  return entry.country === 'England' ||
    entry.country === 'Scotland' ||
    entry.country === 'Wales' ||
    entry.country === null
    ? 'GB'
    : entry.country;
}
const MIN_FUZZY_LENGTH = 4;
const MIN_FUZZY_SIMILARITY = 0.75;

// Words that refine a place rather than name another one: "Gatwick North Terminal", "Leeds station
// front entrance". Leaving them unmatched costs nothing; leaving a distinctive word unmatched does
// ("Buckingham Palace" is not the town of Buckingham).
const REFINEMENT_WORDS = new Set([
  'north',
  'south',
  'east',
  'west',
  'terminal',
  'terminals',
  'arrivals',
  'departures',
  'entrance',
  'exit',
  'main',
  'car',
  'park',
  'drop',
  'off',
  'pick',
  'pickup',
  'up',
  'gate',
  'platform',
  'front',
  'rear',
  'back',
  'side',
  'taxi',
  'rank',
  'bus',
  'stop',
  'outside',
  'inside',
  'the',
  'at',
  'by',
  'near',
  'opposite',
  'please',
  'forecourt',
  'concourse',
  'building',
  'block',
  'level',
  'floor',
  'door',
  'reception',
  'international',
  'domestic',
  'flat',
  'unit',
  'apartment',
  'house',
  'uk',
  'england',
  'scotland',
  'wales',
  'city',
  'town',
  'in',
  'on',
  'of',
  'and',
  'tube',
  'underground',
  'overground',
  'dlr',
  'metro',
  'tram',
  'station',
  'stn',
  'airport',
  'ferry',
  'port',
  'cruise',
]);
/**
 * Words that name what kind of place a point of interest is: "Salford Royal Hospital" is the
 * hospital Salford Royal, "Manchester Met Uni" the university. Left over after a point of
 * interest of that kind, they refine rather than contradict.
 */
const CATEGORY_WORDS: Record<string, readonly string[]> = {
  hospital: ['hospital', 'hosp', 'infirmary', 'nhs', 'a', 'e', 'and'],
  university: ['university', 'uni', 'campus', 'college'],
  college: ['college', 'campus'],
  stadium: ['stadium', 'ground', 'football', 'fc', 'park'],
  arena: ['arena', 'venue'],
  museum: ['museum', 'gallery'],
  attraction: ['museum', 'gallery', 'castle', 'park', 'house'],
  landmark: ['building', 'tower'],
  hotel: ['hotel'],
  shopping_centre: ['shopping', 'centre', 'center', 'mall'],
  ferry_terminal: ['ferry', 'terminal', 'port'],
  cruise_terminal: ['cruise', 'terminal', 'port'],
  port: ['ferry', 'terminal', 'port'],
  theme_park: ['theme', 'park', 'resort'],
  venue: ['theatre', 'venue', 'hall'],
};
const isRefinement = (word: string) => REFINEMENT_WORDS.has(word) || /^\d+[a-z]?$/.test(word) || word.length === 1;
/** The words a place leaves unexplained that matter: "city centre" refines, "Barbican Centre" names a venue. */
function distinctiveWords(words: string[]): string[] {
  return words.filter(
    (w, i) =>
      !isRefinement(w) && !((w === 'centre' || w === 'center') && (words[i - 1] === 'city' || words[i - 1] === 'town')),
  );
}
/** Distinctive words the answer does not account for cost this much of its confidence. */
const UNMATCHED_WORDS_FACTOR = 0.6;
/** A town named in the query that the answer is not in: the answer is very likely wrong. */
const WRONG_TOWN_FACTOR = 0.5;

const EXACT_CONFIDENCE = 0.95;
const DERIVED_CONFIDENCE = 0.9;
const MAX_FUZZY_CONFIDENCE = 0.85;

function allowedEdits(length: number): number {
  if (length < MIN_FUZZY_LENGTH) return 0;
  if (length <= 5) return 1;
  if (length <= 11) return 2;
  return 3;
}

/** A station, an airport, a venue, or a place of at least suburb size. */
function isSubstantial(entry: GazetteerEntry): boolean {
  return (entry.kind !== 'place' && entry.kind !== 'street') || TOWN_TYPES.has(entry.placeType ?? 'Hamlet');
}

function matchesIntent(entry: GazetteerEntry, intent: Intent): boolean {
  return intent !== null && entry.kind === intent;
}

export class NameSearch {
  constructor(private readonly gazetteer: Gazetteer) {}

  search(query: QueryText): NameMatch | null {
    const { parts } = query;
    if (parts.length === 0) return null;

    // Each comma part in turn, most specific first; later parts qualify it. A street name is
    // skipped unless what it matches lies in the town named after it: "High Street, Bracknell"
    // is not Glasgow's High Street station, "Birmingham New Street, Birmingham" is the station.
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] ?? '';
      let candidates = this.exactCandidates(part);
      // After a street, a part is the town the street is in ("Main Street, Hillsborough" is the
      // town, not Hillsborough Stadium).
      const afterStreets = i > 0 && parts.slice(0, i).every((p) => STREET.test(p));
      if (afterStreets && candidates.some((c) => c.ref.entry.kind === 'place'))
        candidates = candidates.filter((c) => c.ref.entry.kind === 'place');
      if (candidates.length === 0) continue;
      const chosen = this.rank(candidates, parts.slice(i + 1), query, i === 0 ? 1 : 0.8);
      if (i < parts.length - 1 && STREET.test(part) && !(chosen.qualified && isSubstantial(chosen.entry))) continue;
      // Earlier parts passed over: a street or a house number only makes the answer less precise
      // (a town centre, said so by its precision); a distinctive name ("Royal Infirmary,
      // Manchester") makes it doubtful.
      const skipped = parts
        .slice(0, i)
        .filter((p) => !STREET.test(p))
        .flatMap((p) => tokens(p));
      const factor = skipped.length > 0 ? this.leftoverFactor(chosen.entry, skipped) : 1;
      return { entry: chosen.entry, confidence: round2(chosen.confidence * factor) };
    }

    const first = parts[0] ?? '';
    const words = tokens(first);
    // "Yate Bristol": the longest leading name whose remaining words qualify it.
    const split = this.leadingName(words, parts.slice(1), query);
    if (split?.qualified) return split.match;
    // "Manchster Piccadilly": a typo, before "Piccadilly" alone is taken as a suburb of Rotherham.
    const fuzzy = this.fuzzyCandidates(first);
    if (fuzzy.length > 0) return this.choose(fuzzy, parts.slice(1), query, 1);
    // "Gatwick North Terminal": a leading name with words we cannot use.
    if (split) return split.match;
    // "10 Downing Street London": a trailing town, only if it is a real town or better.
    for (let k = 1; k < words.length; k++) {
      const tail = words.slice(k).join(' ');
      if (tail.length < 4) continue;
      const candidates = this.exactCandidates(tail).filter((c) => isSubstantial(c.ref.entry));
      if (candidates.length === 0) continue;
      const dropped = words.slice(0, k);
      // "Manchester Road Huddersfield": a street before the town is as sure as the same with a comma.
      const streetFirst = isStreetWord(dropped.at(-1) ?? '');
      const match = this.choose(candidates, parts.slice(1), query, streetFirst ? 0.8 : 0.7);
      // "10 Downing Street London": a street before the town only costs precision.
      const factor = STREET.test(dropped.join(' ')) ? 1 : this.leftoverFactor(match.entry, dropped);
      return { entry: match.entry, confidence: round2(match.confidence * factor) };
    }
    return null;
  }

  /**
   * Places the passenger may have meant, best first, for when no answer is confident: what each
   * part, each leading name, each trailing name and each distinctive word names, and near
   * spellings (not held to word alignment: a suggestion is a question, not an answer). When the
   * query names a town, places in it come first.
   */
  suggest(query: QueryText, limit: number): GazetteerEntry[] {
    const best = new Map<GazetteerEntry, number>();
    const consider = (candidates: Candidate[], weight: number) => {
      for (const c of candidates) {
        const score =
          (c.ref.score - PER_EDIT_PENALTY * c.distance) * weight +
          (matchesIntent(c.ref.entry, query.intent) ? INTENT_BONUS : 0);
        if ((best.get(c.ref.entry) ?? -Infinity) < score) best.set(c.ref.entry, score);
      }
    };
    const words = query.parts.flatMap((p) => tokens(p));
    // A name followed by "road", "street"... is part of a street's name, not a place of its own.
    const inStreetName = (end: number) => isStreetWord(words[end] ?? '');
    for (const part of query.parts) {
      consider(this.exactCandidates(part), 1);
      // "London airport": every airport the city's name with the word the passenger used names.
      if (query.intent) consider(this.exactCandidates(`${withoutIntentWords(part)} ${query.intent}`), 1);
    }
    for (let i = 0; i < words.length; i++) {
      for (let j = words.length; j > i; j--) {
        const span = words.slice(i, j);
        if (span.length === 1 && (isRefinement(span[0] ?? '') || (span[0] ?? '').length < 4)) continue;
        if (inStreetName(j) || (span.length === 1 && i > 0 && isStreetWord(span[0] ?? ''))) continue;
        consider(this.exactCandidates(span.join(' ')), span.length / words.length);
      }
    }
    for (const part of query.parts) consider(this.fuzzyCandidates(part, false), 0.8);
    // A town named after the name ("St Thomas Hospital London", "Headingley Stadium, Leeds"), not
    // the town a name starts with ("London airport") nor one in a street's name ("Leeds Road"):
    // only places in it are offered. Leeds in Kent is not a suggestion for the Leeds named.
    const named = this.namedAreas(words);
    const ranked = [...best.entries()].sort((a, b) => b[1] - a[1]).map(([entry]) => entry);
    if (named.length === 0) return ranked.slice(0, limit);
    const inNamed = ranked.filter((e) => named.some((area) => this.inArea(e, area)));
    for (const area of named) if (area.anchor && !inNamed.includes(area.anchor)) inNamed.push(area.anchor);
    return inNamed.slice(0, limit);
  }

  /**
   * The towns (or islands, or Northern Ireland) a query names after its first word, each by its
   * most prominent place ("northern ireland" has none: its places say so in their context).
   */
  namedAreas(words: string[]): Array<{ key: string; anchor: GazetteerEntry | undefined }> {
    const out: Array<{ key: string; anchor: GazetteerEntry | undefined }> = [];
    for (let i = 1; i < words.length; i++) {
      for (let j = Math.min(words.length, i + 3); j > i; j--) {
        const key = words.slice(i, j).join(' ');
        // "Castle Street" names no town called Street, and "Leeds Road" no Leeds.
        // Nor does "Goodison Park" name the suburb of Bradford called Park.
        if (
          !this.gazetteer.isTownName(key) ||
          isStreetWord(words[j] ?? '') ||
          isStreetWord(key) ||
          (j === i + 1 && isRefinement(key))
        )
          continue;
        out.push({ key, anchor: this.anchorOf(key) });
        i = j - 1;
        break;
      }
    }
    return out;
  }

  private anchorOf(key: string): GazetteerEntry | undefined {
    let anchor: GazetteerEntry | undefined;
    let best = -Infinity;
    for (const ref of this.gazetteer.exact(key)) {
      if (ref.entry.kind === 'place' && ref.score > best) {
        best = ref.score;
        anchor = ref.entry;
      }
    }
    return anchor;
  }

  private inArea(entry: GazetteerEntry, area: { key: string; anchor: GazetteerEntry | undefined }): boolean {
    if (entry === area.anchor || containsWords(entry.context, area.key)) return true;
    return (
      !!area.anchor &&
      haversineMeters(entry.lat, entry.lon, area.anchor.lat, area.anchor.lon) <= QUALIFIER_TOWN_RADIUS_M
    );
  }

  private leadingName(
    words: string[],
    otherParts: string[],
    query: QueryText,
  ): { match: NameMatch; qualified: boolean } | null {
    for (let k = words.length - 1; k >= 1; k--) {
      // "Wilmslow Road", "Leeds Road Bradford": a town's name before "road" is a street's name.
      if (isStreetWord(words[k] ?? '')) continue;
      const candidates = this.exactCandidates(words.slice(0, k).join(' '));
      if (candidates.length === 0) continue;
      const rest = withoutIntentWords(words.slice(k).join(' '));
      // Refinements ("north terminal") say which part of the place, not which place: no qualifier.
      const qualifiers = rest && distinctiveWords(tokens(rest)).length > 0 ? [rest, ...otherParts] : otherParts;
      const match = this.choose(candidates, qualifiers, query, 0.9);
      const qualified = rest === '' || this.qualifierMatches(match.entry, rest);
      if (!qualified) match.confidence = round2(match.confidence * this.leftoverFactor(match.entry, tokens(rest)));
      return { match, qualified };
    }
    return null;
  }

  /**
   * What the words an answer leaves unexplained cost it: nothing for refinements ("north
   * terminal", a house number), more for a distinctive word ("palace", "infirmary"), and most when
   * they name a town the answer is not in ("St Thomas Hospital London" is not in Exeter).
   */
  private leftoverFactor(entry: GazetteerEntry, leftover: string[]): number {
    const kindWords = entry.category ? (CATEGORY_WORDS[entry.category] ?? []) : [];
    if (distinctiveWords(leftover).filter((w) => !kindWords.includes(w)).length === 0) return 1;
    const factor = UNMATCHED_WORDS_FACTOR;
    for (let i = 0; i < leftover.length; i++) {
      for (let j = Math.min(leftover.length, i + 3); j > i; j--) {
        const name = leftover.slice(i, j).join(' ');
        if (this.gazetteer.isTownName(name) && !this.qualifierMatches(entry, name)) return factor * WRONG_TOWN_FACTOR;
      }
    }
    return factor;
  }

  /** True when a qualifier is the name of a town, a village or an island ("Corwen", "Jersey"). */
  private namesPlace(qualifier: string): boolean {
    return (
      this.gazetteer.isTownName(qualifier) ||
      this.gazetteer.exact(qualifier).some((ref) => ref.entry.kind === 'place' && !ref.derived)
    );
  }

  private exactCandidates(part: string): Candidate[] {
    const out: Candidate[] = [];
    for (const key of nameVariants(part)) for (const ref of this.gazetteer.exact(key)) out.push({ ref, distance: 0 });
    return out;
  }

  /** Fuzzy hits per key, shared by the answer and the suggestions of one query. */
  private readonly fuzzyHits = new Map<string, FuzzyHit[]>();

  private fuzzyCandidates(part: string, aligned = true): Candidate[] {
    const out: Candidate[] = [];
    for (const key of new Set([part, withoutIntentWords(part)])) {
      const edits = allowedEdits(key.length);
      // Every word spelled as some name spells it: nothing to correct, and "correcting" a real
      // word into another is how a query lands on a different place.
      if (edits === 0 || tokens(key).every((w) => this.gazetteer.isKnownWord(w))) continue;
      let hits = this.fuzzyHits.get(key);
      if (!hits) {
        hits = this.gazetteer.fuzzy(key, edits);
        this.fuzzyHits.set(key, hits);
      }
      for (const hit of hits) {
        const similarity = 1 - hit.distance / Math.max(key.length, hit.key.length);
        // Typos inside the words typed, never another name: "York Minster" is not Worminster. And
        // two slips to reach a village are more likely another name than a typo ("Tynecastle"
        // is not Trecastle); a town, a station or a venue is worth the second edit.
        if (similarity < MIN_FUZZY_SIMILARITY || (aligned && !wordsAlign(key, hit.key))) continue;
        if (aligned && hit.distance > 1 && !isSubstantial(hit.ref.entry)) continue;
        out.push({ ref: hit.ref, distance: hit.distance });
      }
    }
    return out;
  }

  private qualifierMatches(entry: GazetteerEntry, qualifier: string): boolean {
    if (containsWords(entry.context, qualifier)) return true;
    let town: GazetteerEntry | undefined;
    let best = -Infinity;
    // The most prominent thing of that name anchors it: "Paddington" is London Paddington (the
    // station outranks a suburb of Warrington), "Bristol" the city.
    for (const ref of this.gazetteer.exact(qualifier)) {
      if ((ref.entry.kind === 'place' || ref.entry.kind === 'station') && ref.score > best) {
        best = ref.score;
        town = ref.entry;
      }
    }
    // A town covers its suburbs ("Yate, Bristol"), but a named point must be in the town itself:
    // the Adelphi Hotel in Southport is not "the Adelphi, Liverpool".
    const radius = entry.kind === 'place' ? QUALIFIER_TOWN_RADIUS_M : POINT_IN_TOWN_RADIUS_M;
    return town !== undefined && haversineMeters(entry.lat, entry.lon, town.lat, town.lon) <= radius;
  }

  private choose(candidates: Candidate[], qualifiers: string[], query: QueryText, partConfidence: number): NameMatch {
    const { entry, confidence } = this.rank(candidates, qualifiers, query, partConfidence);
    return { entry, confidence };
  }

  private rank(
    candidates: Candidate[],
    qualifiers: string[],
    query: QueryText,
    partConfidence: number,
  ): NameMatch & { qualified: boolean } {
    const qualifierList = qualifiers.filter((q) => q !== '');
    const byEntry = new Map<GazetteerEntry, { score: number; candidate: Candidate; qualified: boolean }>();
    for (const candidate of candidates) {
      const { entry } = candidate.ref;
      const qualified = qualifierList.some((q) => this.qualifierMatches(entry, q));
      const score =
        candidate.ref.score +
        (matchesIntent(entry, query.intent) ? INTENT_BONUS : 0) +
        (qualified ? QUALIFIER_BONUS : 0) -
        PER_EDIT_PENALTY * candidate.distance;
      const existing = byEntry.get(entry);
      if (!existing || score > existing.score) byEntry.set(entry, { score, candidate, qualified });
    }
    const ranked = [...byEntry.entries()].sort((a, b) => b[1].score - a[1].score);
    const [entry, top] = ranked[0]!;

    let confidence: number;
    if (top.candidate.distance > 0) {
      const length = Math.max(4, (query.parts[0] ?? '').length);
      confidence = Math.min(MAX_FUZZY_CONFIDENCE, 0.9 * (1 - top.candidate.distance / length));
    } else {
      confidence = top.candidate.ref.derived ? DERIVED_CONFIDENCE : EXACT_CONFIDENCE;
    }
    const rival = ranked.find(
      ([other, r]) =>
        other !== entry &&
        r.score >= top.score - AMBIGUITY_MARGIN &&
        haversineMeters(entry.lat, entry.lon, other.lat, other.lon) > SAME_PLACE_M,
    );
    // A suburb or village whose name several other places share ("Moreton": five villages and a
    // suburb of the Wirral) is no surer than a tie: none of them is the obvious one.
    const namesakes = ranked.filter(
      ([other]) =>
        other !== entry &&
        other.kind === 'place' &&
        haversineMeters(entry.lat, entry.lon, other.lat, other.lon) > SAME_PLACE_M,
    ).length;
    const obscure =
      entry.kind === 'place' &&
      !top.qualified &&
      entry.placeType !== 'City' &&
      entry.placeType !== 'Town' &&
      namesakes >= MANY_NAMESAKES;
    // A namesake across the sea is a fare across the sea: "St Helier" may be Jersey's capital or
    // the estate in Sutton, "Bangor" the city in Gwynedd or in County Down. Unless the query says
    // which, it is asked, not guessed.
    const overSea =
      !top.qualified &&
      ranked.some(
        ([other, r]) =>
          other !== entry &&
          other.kind === 'place' &&
          TOWN_TYPES.has(other.placeType ?? 'Hamlet') &&
          landOf(other) !== landOf(entry) &&
          r.score >= top.score - OVER_SEA_MARGIN,
      );
    if (overSea) confidence *= 0.7;
    else if (rival || obscure) confidence *= 0.75;
    if (query.intent !== null && !matchesIntent(entry, query.intent)) confidence *= 0.6;
    if (qualifierList.length > 0 && !top.qualified) {
      // "Newport, Wales" answered with a Newport elsewhere: a named town outranks everything.
      // Any place named counts: "Capel Coch, London Road, Corwen" is not the hamlet on Anglesey.
      confidence *= qualifierList.some((q) => this.namesPlace(q)) ? WRONG_TOWN_FACTOR : 0.85;
    }
    if (query.intentCorrected) confidence *= 0.9;
    return { entry, confidence: round2(confidence * partConfidence), qualified: top.qualified };
  }
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
