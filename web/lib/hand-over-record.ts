import { plural } from '@lingui/core/macro';
import type { HandOverRecord } from '#common/schemas/no-shows.ts';

/**
 * "Kept 19 of 20 hand-overs" (issue 30, ADR 079) in the active language, or null while the member
 * has no hand-over whose window ended in the last 12 months. The English keeps "hand-overs" after
 * "of 1", as the issue writes it; other languages choose by the count. Call at render time.
 */
export function handOverRecordText(record: HandOverRecord | null | undefined): string | null {
  // An answer kept from before the record existed (the offline cache, ADR 034) has none.
  if (!record || record.due <= 0) return null;
  const { kept, due } = record;
  return plural(due, { one: `Kept ${kept} of # hand-overs`, other: `Kept ${kept} of # hand-overs` });
}
