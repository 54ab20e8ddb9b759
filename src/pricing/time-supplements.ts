import { formatPence } from './money.js';
import { firstMatchingCondition, matchedBankHoliday, type LocalInstant } from './periods.js';
import { provisionalNote, type PricedRule } from './priced-rule.js';
import type { Supplement, TariffVersion } from './tariff-schema.js';

// Flat per-hire supplements that depend on when the hire happens (Glasgow's £1.50 night charge,
// South Glos's £1.70 evening/weekend charge, TfL's £4 Christmas extra). Within a group only the
// first match applies, because councils say e.g. the bank-holiday supplement replaces the
// evening one rather than adding to it.

function matchFor(supplement: Supplement, start: LocalInstant, end: LocalInstant) {
  const atStart = firstMatchingCondition(supplement.when, start);
  if (atStart || supplement.appliesAt === 'start') return atStart ? { condition: atStart, at: 'start' as const } : null;
  const atEnd = firstMatchingCondition(supplement.when, end);
  return atEnd ? { condition: atEnd, at: 'end' as const } : null;
}

/** `periodId` is the tariff period chosen at the pickup; a supplement tied to other periods is skipped. */
export function timeSupplementRules(
  version: TariffVersion,
  periodId: string,
  start: LocalInstant,
  end: LocalInstant,
): PricedRule[] {
  const rules: PricedRule[] = [];
  const groupsUsed = new Set<string>();
  for (const supplement of version.supplements) {
    if (supplement.group && groupsUsed.has(supplement.group)) continue;
    if (supplement.periods && !supplement.periods.includes(periodId)) continue;
    const match = matchFor(supplement, start, end);
    if (!match) continue;
    if (supplement.group) groupsUsed.add(supplement.group);
    const holiday =
      match.condition.type === 'bank_holiday'
        ? matchedBankHoliday(match.condition, match.at === 'start' ? start : end)
        : null;
    const when = match.at === 'end' ? ' (the hire ends in the supplement window)' : '';
    rules.push({
      code: match.condition.code ?? supplement.code,
      description: `${supplement.name}${holiday ? ` — ${holiday}` : ''}: ${formatPence(supplement.amountPence)} per hire${when}${provisionalNote(supplement.provisional)}`,
      amountPence: supplement.amountPence,
      provisional: supplement.provisional,
    });
  }
  return rules;
}
