import { Trans, useLingui } from '@lingui/react/macro';
import { ArrowDown, ArrowUp, X } from 'lucide-react';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { SWAP_DAY_MAX_WANTS_PER_OFFER, type SwapDayOffer } from '#common/schemas/swap-days.ts';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Select } from '#web/components/ui/select.tsx';

type Direction = 'up' | 'down';

/**
 * What you would accept for one of your offers, most wanted first: choose items other members
 * offer and order them with Move up / Move down (buttons, so the keyboard and screen readers can do
 * everything a pointer can; no dragging). Each change is announced; Save ranking sends the whole list.
 * Read-only once want lists close.
 */
export function RankingEditor({
  offer,
  candidates,
  editable,
  markUnavailable = true,
  saving,
  onSave,
  actions,
}: {
  offer: SwapDayOffer;
  /** Items other members offer at this swap day. */
  candidates: readonly SwapDayOffer[];
  editable: boolean;
  /** Mark ranked items that can no longer trade (until the swap day is matched). */
  markUnavailable?: boolean;
  saving: boolean;
  onSave: (wantedItemIds: number[]) => void;
  /** Beside the heading: Withdraw. */
  actions?: ReactNode;
}) {
  const { t } = useLingui();
  const id = useId();
  const title = offer.item.title;
  const maxWants = SWAP_DAY_MAX_WANTS_PER_OFFER;
  const [ranked, setRanked] = useState<number[]>(offer.wantedItemIds);
  const [choice, setChoice] = useState('');
  const [announcement, setAnnouncement] = useState('');
  const [focusAfter, setFocusAfter] = useState<{ itemId: number; direction: Direction } | null>(null);
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const select = useRef<HTMLSelectElement>(null);
  const byId = new Map(candidates.map((candidate) => [candidate.item.id, candidate]));
  const label = (itemId: number) => byId.get(itemId)?.item.title ?? t`An item no longer offered`;
  const dirty = ranked.join(',') !== offer.wantedItemIds.join(',');
  const addable = candidates.filter(
    (candidate) => candidate.item.available && !ranked.includes(candidate.item.id),
  );
  const full = ranked.length >= SWAP_DAY_MAX_WANTS_PER_OFFER;

  // Keep the focus on the moved item: on the same button, or the other one once it reached an end.
  useEffect(() => {
    if (!focusAfter) return;
    const { itemId, direction } = focusAfter;
    const same = buttons.current.get(`${itemId}-${direction}`);
    const other = buttons.current.get(`${itemId}-${direction === 'up' ? 'down' : 'up'}`);
    (same && !same.disabled ? same : other)?.focus();
    setFocusAfter(null);
  }, [focusAfter]);

  const move = (index: number, direction: Direction) => {
    const to = direction === 'up' ? index - 1 : index + 1;
    const itemId = ranked[index];
    if (itemId === undefined || to < 0 || to >= ranked.length) return;
    const next = [...ranked];
    next.splice(index, 1);
    next.splice(to, 0, itemId);
    setRanked(next);
    const name = label(itemId);
    const rank = to + 1;
    const count = next.length;
    setAnnouncement(t`${name} moved to rank ${rank} of ${count}.`);
    setFocusAfter({ itemId, direction });
  };
  const remove = (index: number) => {
    const itemId = ranked[index];
    if (itemId === undefined) return;
    setRanked(ranked.filter((_, at) => at !== index));
    const name = label(itemId);
    setAnnouncement(t`${name} removed from your ranking.`);
    select.current?.focus();
  };
  const add = () => {
    const itemId = Number(choice);
    if (!itemId || ranked.includes(itemId) || full) return;
    setRanked([...ranked, itemId]);
    setChoice('');
    const name = label(itemId);
    const rank = ranked.length + 1;
    setAnnouncement(t`${name} added at rank ${rank}.`);
  };

  const headingId = `${id}-heading`;
  return (
    <section
      aria-labelledby={headingId}
      className="grid gap-3 rounded-xl border border-slate-200 bg-white p-4"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="font-semibold">
          <Trans>For your {title}</Trans>
        </h3>
        {actions}
      </div>
      {ranked.length === 0 ? (
        <p className="text-sm text-slate-600">
          {editable
            ? t`Nothing ranked yet: add the items you would accept for it, most wanted first.`
            : t`You ranked nothing for it.`}
        </p>
      ) : (
        <ol aria-label={t`What you would accept for your ${title}`} className="grid gap-2">
          {ranked.map((itemId, index) => {
            const candidate = byId.get(itemId);
            const name = label(itemId);
            const rank = index + 1;
            const owner = candidate?.owner.displayName;
            return (
              <li
                key={itemId}
                className="flex flex-wrap items-center gap-2 rounded-lg border border-slate-200 bg-slate-50 p-2 text-sm"
              >
                <span className="w-6 shrink-0 text-right font-semibold text-slate-700" aria-hidden="true">
                  {index + 1}.
                </span>
                <span className="min-w-0 flex-1">
                  <span className="sr-only">
                    <Trans>Rank {rank}:</Trans>{' '}
                  </span>
                  <span className="font-medium text-slate-900">{name}</span>
                  {candidate ? (
                    <span className="text-slate-600">
                      {' '}
                      <Trans>from {owner}</Trans>
                    </span>
                  ) : null}
                  {markUnavailable && candidate && !candidate.item.available ? (
                    <Badge className="ml-2 bg-red-100 text-red-900">
                      <Trans>No longer available</Trans>
                    </Badge>
                  ) : null}
                </span>
                {editable ? (
                  <span className="flex gap-1">
                    {(['up', 'down'] as const).map((direction) => (
                      <Button
                        key={direction}
                        ref={(element) => {
                          if (element) buttons.current.set(`${itemId}-${direction}`, element);
                          else buttons.current.delete(`${itemId}-${direction}`);
                        }}
                        variant="secondary"
                        size="icon"
                        aria-label={direction === 'up' ? t`Move ${name} up` : t`Move ${name} down`}
                        disabled={direction === 'up' ? index === 0 : index === ranked.length - 1}
                        onClick={() => move(index, direction)}
                      >
                        {direction === 'up' ? (
                          <ArrowUp className="h-4 w-4" aria-hidden="true" />
                        ) : (
                          <ArrowDown className="h-4 w-4" aria-hidden="true" />
                        )}
                      </Button>
                    ))}
                    <Button
                      variant="secondary"
                      size="icon"
                      aria-label={t`Remove ${name}`}
                      onClick={() => remove(index)}
                    >
                      <X className="h-4 w-4" aria-hidden="true" />
                    </Button>
                  </span>
                ) : null}
              </li>
            );
          })}
        </ol>
      )}
      {editable ? (
        <>
          <div className="grid gap-2 sm:grid-cols-[1fr_auto] sm:items-end">
            <div className="grid gap-2">
              <Label htmlFor={`${id}-add`}>
                <Trans>Add an item you would accept</Trans>
              </Label>
              <Select
                id={`${id}-add`}
                ref={select}
                value={choice}
                disabled={full || addable.length === 0}
                onChange={(event) => setChoice(event.target.value)}
              >
                <option value="">
                  {addable.length === 0 ? t`No other items to add` : t`Choose an item`}
                </option>
                {addable.map((candidate) => {
                  const item = candidate.item.title;
                  const owner = candidate.owner.displayName;
                  return (
                    <option key={candidate.item.id} value={candidate.item.id}>
                      {t`${item}, from ${owner}`}
                    </option>
                  );
                })}
              </Select>
            </div>
            <Button variant="secondary" disabled={!choice || full} onClick={add}>
              <Trans>Add</Trans>
            </Button>
          </div>
          {full ? (
            <p className="text-sm text-slate-600">
              <Trans>You can rank at most {maxWants} items.</Trans>
            </p>
          ) : null}
          <div className="flex flex-wrap items-center gap-3">
            <Button disabled={!dirty || saving} onClick={() => onSave(ranked)}>
              {saving ? t`Saving...` : t`Save ranking`}
            </Button>
            {dirty ? (
              <span className="text-sm text-amber-800">
                <Trans>Unsaved changes</Trans>
              </span>
            ) : null}
          </div>
        </>
      ) : null}
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
    </section>
  );
}
