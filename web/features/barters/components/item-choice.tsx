import { Trans } from '@lingui/react/macro';
import { type ReactNode, useId } from 'react';
import type { FeedItem } from '#common/schemas/feed.ts';
import { Badge } from '#web/components/ui/badge.tsx';
import { ListingImage } from '#web/components/ui/listing-image.tsx';

/** What the proposal dialog shows of an item to choose. */
export type ChoosableItem = Pick<FeedItem, 'id' | 'title' | 'category' | 'isService' | 'thumbnailUrl'>;

/**
 * One side of a proposal: a labelled group of checkboxes, one per item or service (photo, title,
 * Service badge), with the side's validation message tied to the group.
 */
export function ItemChoice({
  legend,
  options,
  value,
  onChange,
  error,
  footer,
}: {
  legend: string;
  options: readonly ChoosableItem[];
  value: readonly number[];
  onChange: (ids: number[]) => void;
  error?: string;
  /** Under the list: Load More, a note. */
  footer?: ReactNode;
}) {
  const id = useId();
  const messageId = `${id}-message`;
  const toggle = (itemId: number, checked: boolean) =>
    onChange(checked ? [...value, itemId] : value.filter((chosen) => chosen !== itemId));
  return (
    <fieldset className="grid gap-2" aria-describedby={error ? messageId : undefined}>
      <legend className="mb-2 text-sm font-semibold text-slate-900">{legend}</legend>
      <ul className="grid max-h-60 gap-2 overflow-y-auto pr-1">
        {options.map((item) => {
          const checkboxId = `${id}-${item.id}`;
          return (
            <li key={item.id}>
              <label
                htmlFor={checkboxId}
                className="flex cursor-pointer items-center gap-3 rounded-lg border border-slate-200 p-2 has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
              >
                <input
                  id={checkboxId}
                  type="checkbox"
                  className="h-4 w-4 shrink-0 accent-brand-700"
                  checked={value.includes(item.id)}
                  onChange={(event) => toggle(item.id, event.target.checked)}
                />
                {/* The title names the checkbox; the picture (or its 'No image') adds nothing to it. */}
                <span aria-hidden="true" className="shrink-0">
                  <ListingImage
                    thumbnail
                    src={item.thumbnailUrl}
                    className="h-10 w-10 rounded-md text-[10px]"
                  />
                </span>
                <span className="min-w-0 flex-1 truncate text-sm text-slate-900">{item.title}</span>
                {item.isService ? (
                  <>
                    {' '}
                    <Badge tone="accent">
                      <Trans>Service</Trans>
                    </Badge>
                  </>
                ) : null}
              </label>
            </li>
          );
        })}
      </ul>
      {footer}
      {error ? (
        <p id={messageId} role="alert" className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
