import { Trans } from '@lingui/react/macro';
import { Button } from './button';

/** What LoadMoreButton needs of an infinite query (TanStack's useInfiniteQuery result has it). */
interface PagedQuery {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

/** "Load More ..." under a paged list while the server has more; "Loading..." while a page comes. */
export function LoadMoreButton({ query, label }: { query: PagedQuery; label: string }) {
  if (!query.hasNextPage) return null;
  return (
    <div className="flex justify-center">
      <Button
        variant="secondary"
        disabled={query.isFetchingNextPage}
        onClick={() => void query.fetchNextPage()}
      >
        {query.isFetchingNextPage ? <Trans>Loading...</Trans> : label}
      </Button>
    </div>
  );
}
