import type { AppliedRule } from './types.js';

/** An AppliedRule plus whether it rests on a provisional figure, which makes the whole quote provisional. */
export interface PricedRule extends AppliedRule {
  provisional: boolean;
}

export function publicRule({ code, description, amountPence }: PricedRule): AppliedRule {
  return { code, description, amountPence };
}

export function provisionalNote(provisional: boolean): string {
  return provisional ? ' (provisional figure)' : '';
}
