import { plural } from '@lingui/core/macro';
import { useQuery } from '@tanstack/react-query';
import { formatRadius } from '#web/i18n/format.ts';
import { userQuery } from '#web/lib/get-user.ts';
import { useDebouncedValue } from '#web/lib/use-debounced-value.ts';
import { useWantedCount } from '../api/wanted-count';

/** How long the form waits after the last key before it asks (ADR 084). */
export const WANTED_COUNT_DEBOUNCE_MS = 600;

/**
 * "4 neighbours within 2 miles want this" under the item form (issue 31, ADR 084): members nearby
 * whose want or saved search the draft matches, counted by the server once typing pauses. Nothing
 * while nobody does, or while the member has no location; always in the page as a polite live region, so a screen reader hears it change.
 */
export function WantedCountLine(props: { title: string; category: string; isService: boolean }) {
  const draft = useDebouncedValue(props, WANTED_COUNT_DEBOUNCE_MS);
  // The signed-in member as the shell already read them (never fetched here): without a location,
  // nobody is within a distance of them, and the form does not ask.
  const { data: me } = useQuery({ ...userQuery(), enabled: false });
  const query = useWantedCount(draft, { located: me?.latitude != null });
  const found = query.data && query.data.count > 0 && query.data.withinMiles !== null ? query.data : null;
  let text = '';
  if (found) {
    const radius = formatRadius(found.withinMiles ?? 1);
    text = plural(found.count, {
      one: `# neighbour within ${radius} wants this`,
      other: `# neighbours within ${radius} want this`,
    });
  }
  return (
    <p role="status" aria-live="polite" className={found ? 'text-sm font-medium text-brand-800' : 'sr-only'}>
      {text}
    </p>
  );
}
