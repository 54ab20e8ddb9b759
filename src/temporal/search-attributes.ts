import type { Connection } from '@temporalio/client';
import { SearchAttributeType } from '@temporalio/common';
import { BookingSearchAttributes } from '../../workflows/bookings/definitions.js';

// The custom search attributes the workflows upsert. A server that does not know them fails the
// workflow task that upserts them, so they are registered before any worker polls.

/** temporal.api.enums.v1.IndexedValueType, by the SDK's type names. */
const INDEXED_VALUE_TYPE: Record<SearchAttributeType, number> = {
  [SearchAttributeType.TEXT]: 1,
  [SearchAttributeType.KEYWORD]: 2,
  [SearchAttributeType.INT]: 3,
  [SearchAttributeType.DOUBLE]: 4,
  [SearchAttributeType.BOOL]: 5,
  [SearchAttributeType.DATETIME]: 6,
  [SearchAttributeType.KEYWORD_LIST]: 7,
};

const CLI_TYPE: Record<SearchAttributeType, string> = {
  [SearchAttributeType.TEXT]: 'Text',
  [SearchAttributeType.KEYWORD]: 'Keyword',
  [SearchAttributeType.INT]: 'Int',
  [SearchAttributeType.DOUBLE]: 'Double',
  [SearchAttributeType.BOOL]: 'Bool',
  [SearchAttributeType.DATETIME]: 'Datetime',
  [SearchAttributeType.KEYWORD_LIST]: 'KeywordList',
};

const ALL = Object.values(BookingSearchAttributes);
const UNIMPLEMENTED = 12;
const grpcCode = (err: unknown) => (err as { code?: number } | null)?.code;

/** `--search-attribute Name=Type` flags for `temporal server start-dev`. */
export function devServerSearchAttributeArgs(): string[] {
  return ALL.flatMap((k) => ['--search-attribute', `${k.name}=${CLI_TYPE[k.type]}`]);
}

/**
 * Registers any that the namespace lacks (an operator call; a no-op when all exist). Servers that
 * refuse operator calls (Temporal Cloud registers them in its console) are left as they are.
 */
export async function ensureSearchAttributes(connection: Connection, namespace: string): Promise<string[]> {
  let known = new Set<string>();
  try {
    const existing = await connection.operatorService.listSearchAttributes({ namespace });
    known = new Set(Object.keys(existing.customAttributes ?? {}));
  } catch (err) {
    // The time-skipping test server adds search attributes but cannot list them.
    if (grpcCode(err) !== UNIMPLEMENTED) throw err;
  }
  const missing = ALL.filter((k) => !known.has(k.name));
  if (missing.length === 0) return [];
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(missing.map((k) => [k.name, INDEXED_VALUE_TYPE[k.type]])),
  });
  return missing.map((k) => k.name);
}
