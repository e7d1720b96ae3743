import { Trans, useLingui } from '@lingui/react/macro';
import { Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { paths } from '#web/lib/paths.ts';

/**
 * The search box: submitting shows the results over all listings within the member's distance
 * (`/search?q=`, ADR 089) from any screen; it follows the URL, so the header's box and the phone's
 * box always show the current search.
 */
export function SearchBox({ id, className }: { id: string; className?: string }) {
  const { t } = useLingui();
  const [, navigate] = useLocation();
  const current = new URLSearchParams(useSearch()).get('q') ?? '';
  const [text, setText] = useState(current);
  useEffect(() => setText(current), [current]);
  return (
    // biome-ignore lint/a11y/useSemanticElements: <search> is unknown to older browsers and jsdom; the role is equivalent
    <div role="search" className={className}>
      <form
        className="relative"
        onSubmit={(event) => {
          event.preventDefault();
          navigate(paths.searchFor(text));
        }}
      >
        <label htmlFor={id} className="sr-only">
          <Trans>Search items or services</Trans>
        </label>
        <Search
          className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-500"
          aria-hidden="true"
        />
        <input
          id={id}
          type="search"
          name="q"
          placeholder={t`Search items or services...`}
          value={text}
          onChange={(event) => setText(event.target.value)}
          className="h-10 w-full rounded-full border border-slate-300 bg-slate-50 pr-3 pl-9 text-sm placeholder:text-slate-500"
        />
      </form>
    </div>
  );
}
