// Finds the entry a passenger most likely means by a name: exact aliases first, then the name
// split from trailing words, then fuzzy (typo-tolerant) matching. Scores from alias-rules.ts
// are adjusted for intent ("airport", "station") and qualifiers (", Bristol", ", Wales").
import type { Gazetteer } from './gazetteer.js';
import type { AliasRef, GazetteerEntry } from './gazetteer-entry.js';
import { haversineMeters } from './haversine.js';
import { containsWords, tokens } from './normalise-text.js';
import { nameVariants, withoutIntentWords, type Intent, type QueryText } from './query-text.js';

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
// Two different answers closer than this are the same place to a taxi driver (a town and its
// station), so their tie is not an ambiguity.
const SAME_PLACE_M = 5_000;
const AMBIGUITY_MARGIN = 5;
const MIN_FUZZY_LENGTH = 4;
const MIN_FUZZY_SIMILARITY = 0.75;

const EXACT_CONFIDENCE = 0.95;
const DERIVED_CONFIDENCE = 0.9;
const MAX_FUZZY_CONFIDENCE = 0.85;

function allowedEdits(length: number): number {
  if (length < MIN_FUZZY_LENGTH) return 0;
  if (length <= 5) return 1;
  if (length <= 11) return 2;
  return 3;
}

/** A station, an airport, or a place of at least suburb size. */
function isSubstantial(entry: GazetteerEntry): boolean {
  return entry.kind !== 'place' || TOWN_TYPES.has(entry.placeType ?? 'Hamlet');
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
      const candidates = this.exactCandidates(part);
      if (candidates.length === 0) continue;
      const chosen = this.rank(candidates, parts.slice(i + 1), query, i === 0 ? 1 : 0.8);
      if (i < parts.length - 1 && STREET.test(part) && !(chosen.qualified && isSubstantial(chosen.entry))) continue;
      return { entry: chosen.entry, confidence: chosen.confidence };
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
      if (candidates.length > 0) return this.choose(candidates, parts.slice(1), query, 0.7);
    }
    return null;
  }

  private leadingName(words: string[], otherParts: string[], query: QueryText): { match: NameMatch; qualified: boolean } | null {
    for (let k = words.length - 1; k >= 1; k--) {
      const candidates = this.exactCandidates(words.slice(0, k).join(' '));
      if (candidates.length === 0) continue;
      const rest = withoutIntentWords(words.slice(k).join(' '));
      const qualifiers = rest ? [rest, ...otherParts] : otherParts;
      const match = this.choose(candidates, qualifiers, query, 0.9);
      const qualified = rest !== '' && this.qualifierMatches(match.entry, rest);
      return { match, qualified: qualified || rest === '' };
    }
    return null;
  }

  private exactCandidates(part: string): Candidate[] {
    const out: Candidate[] = [];
    for (const key of nameVariants(part)) for (const ref of this.gazetteer.exact(key)) out.push({ ref, distance: 0 });
    return out;
  }

  private fuzzyCandidates(part: string): Candidate[] {
    const out: Candidate[] = [];
    for (const key of new Set([part, withoutIntentWords(part)])) {
      const edits = allowedEdits(key.length);
      if (edits === 0) continue;
      for (const hit of this.gazetteer.fuzzy(key, edits)) {
        const similarity = 1 - hit.distance / Math.max(key.length, hit.key.length);
        if (similarity >= MIN_FUZZY_SIMILARITY) out.push({ ref: hit.ref, distance: hit.distance });
      }
    }
    return out;
  }

  private qualifierMatches(entry: GazetteerEntry, qualifier: string): boolean {
    if (containsWords(entry.context, qualifier)) return true;
    let town: GazetteerEntry | undefined;
    let best = -Infinity;
    for (const ref of this.gazetteer.exact(qualifier)) {
      if (ref.entry.kind === 'place' && ref.score > best) {
        best = ref.score;
        town = ref.entry;
      }
    }
    return town !== undefined && haversineMeters(entry.lat, entry.lon, town.lat, town.lon) <= QUALIFIER_TOWN_RADIUS_M;
  }

  private choose(candidates: Candidate[], qualifiers: string[], query: QueryText, partConfidence: number): NameMatch {
    const { entry, confidence } = this.rank(candidates, qualifiers, query, partConfidence);
    return { entry, confidence };
  }

  private rank(candidates: Candidate[], qualifiers: string[], query: QueryText, partConfidence: number): NameMatch & { qualified: boolean } {
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
    if (rival) confidence *= 0.75;
    if (query.intent !== null && !matchesIntent(entry, query.intent)) confidence *= 0.6;
    if (qualifierList.length > 0 && !top.qualified) confidence *= 0.85;
    if (query.intentCorrected) confidence *= 0.9;
    return { entry, confidence: round2(confidence * partConfidence), qualified: top.qualified };
  }
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
