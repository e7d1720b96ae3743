import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { useInfiniteQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link, useLocation } from 'wouter';
import { type Barter, type ProposalInput, proposalSchema } from '#common/schemas/barters.ts';
import { useOpenAddItem } from '#web/components/feature-slots.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent, DialogTrigger } from '#web/components/ui/dialog.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { LoadMoreButton } from '#web/components/ui/load-more-button.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { toastWriteError } from '#web/lib/content-errors.ts';
import { memberItemsQuery } from '#web/lib/member.ts';
import { useMyItems } from '#web/lib/my-items.ts';
import { flattenOwnList } from '#web/lib/own-list.ts';
import { paths } from '#web/lib/paths.ts';
import { useCounterBarter, useProposeBarter } from '../api/barters';
import { sidesOf } from '../barter-sides';
import { type ChoosableItem, ItemChoice } from './item-choice';

/**
 * What the dialog proposes: a new barter for another member's item (chosen on a card or its
 * detail), or a counter to a proposal the viewer received (sides swapped: the viewer offers their
 * items and asks for the proposer's).
 */
export type ProposalTarget =
  | {
      mode: 'propose';
      item: ChoosableItem;
      owner: { id: string; displayName: string };
      /** One of the viewer's items to tick at first: the one the owner wants (issue 28). */
      offerItemId?: number;
    }
  | { mode: 'counter'; barter: Barter };

/** The Propose Barter dialog (and, for a received proposal, the Counter dialog). */
export function ProposalDialog({
  open,
  onOpenChange,
  target,
  trigger,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  target: ProposalTarget;
  /** The button that opens it; it gets the focus back when the dialog closes. */
  trigger?: ReactNode;
}) {
  const { t } = useLingui();
  const counter = target.mode === 'counter';
  const otherName = counter ? target.barter.otherMember.displayName : target.owner.displayName;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {trigger ? <DialogTrigger asChild>{trigger}</DialogTrigger> : null}
      <DialogContent
        title={counter ? t`Counter Offer` : t`Propose a Barter`}
        description={
          counter
            ? t`Change what each of you gives. Your counter offer answers ${otherName}'s proposal.`
            : t`Choose what you offer ${otherName} and what you would like in return.`
        }
        className="max-w-2xl"
      >
        {/* Mounted only while open: every opening starts from the target's choices. */}
        {open ? <ProposalForm target={target} close={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

/** A barter item the member can still choose (it exists and can change hands). */
function choosable(items: Barter['offeredItems']): ChoosableItem[] {
  return items.flatMap((item) => (item.id !== null && item.available ? [{ ...item, id: item.id }] : []));
}

/** `first`, then the items of `more` that are not in it already. */
function union(first: readonly ChoosableItem[], more: readonly ChoosableItem[]): ChoosableItem[] {
  const ids = new Set(first.map((item) => item.id));
  return [...first, ...more.filter((item) => !ids.has(item.id))];
}

function ProposalForm({ target, close }: { target: ProposalTarget; close: () => void }) {
  const { t } = useLingui();
  const [, navigate] = useLocation();
  const openAddItem = useOpenAddItem();
  const counter = target.mode === 'counter';
  const otherId = counter ? target.barter.otherMember.id : target.owner.id;
  const sides = counter ? sidesOf(target.barter) : null;
  // Counter: start from the proposal as it stands (what they asked of me, what they offered).
  const pinnedMine = sides ? choosable(sides.mine) : [];
  const pinnedTheirs = sides ? choosable(sides.theirs) : counter ? [] : [target.item];

  const myItems = useMyItems();
  // A deleted account (no id) has no items to list.
  const theirItems = useInfiniteQuery({ ...memberItemsQuery(otherId ?? ''), enabled: otherId !== null });
  const mine = union(
    pinnedMine,
    flattenOwnList(myItems.data?.pages).rows.filter((item) => item.isActive && !item.isReserved),
  );
  // Without their list (an error), the items already chosen are still there to send.
  const theirs = union(pinnedTheirs, flattenOwnList(theirItems.data?.pages).rows);

  const propose = useProposeBarter();
  const counterBarter = useCounterBarter(counter ? target.barter.id : 0);
  const mutation = counter ? counterBarter : propose;

  const form = useForm<ProposalInput>({
    resolver: zodResolver(proposalSchema),
    defaultValues: {
      offeredItemIds: pinnedMine.map((item) => item.id),
      requestedItemIds: pinnedTheirs.map((item) => item.id),
      message: '',
    },
  });
  const { errors } = form.formState;

  // The card said "They want <your item>": that item starts ticked, once it is among those the
  // member can offer (their list may still be loading), unless they chose something first.
  const offerFirst = target.mode === 'propose' ? target.offerItemId : undefined;
  const canOfferFirst = offerFirst !== undefined && mine.some((item) => item.id === offerFirst);
  const offeredFirst = useRef(false);
  useEffect(() => {
    if (offeredFirst.current || !canOfferFirst || offerFirst === undefined) return;
    offeredFirst.current = true;
    if (form.getValues('offeredItemIds').length === 0) form.setValue('offeredItemIds', [offerFirst]);
  }, [canOfferFirst, offerFirst, form]);

  // Awaited rather than mutate's callbacks: those are dropped when the dialog unmounts first, and a
  // counter can unmount it (the live event and the refetch it causes remove the Counter button).
  const onSubmit = form.handleSubmit(async (values) => {
    let barter: Barter;
    try {
      barter = await mutation.mutateAsync(values);
    } catch (error) {
      toastWriteError(error, t`message`, t`Failed to send the proposal. Please try again.`);
      return;
    }
    toast({
      title: counter ? t`Counter Offer Sent` : t`Proposal Sent`,
      description: (
        <Link href={paths.barter(barter.id)} className="font-medium underline">
          <Trans>View the barter</Trans>
        </Link>
      ),
    });
    close();
    if (counter) navigate(paths.barter(barter.id));
  });

  if (myItems.isLoading)
    return (
      <p className="text-slate-600">
        <Trans>Loading your items...</Trans>
      </p>
    );
  if (myItems.isError)
    return (
      <p className="text-red-700">
        <Trans>Your items could not be loaded. Please try again.</Trans>
      </p>
    );
  if (mine.length === 0 && !myItems.hasNextPage) {
    const hasAny = flattenOwnList(myItems.data?.pages).total > 0;
    return (
      <div className="grid gap-4">
        <p className="text-slate-700">
          {hasAny
            ? t`None of your items can be offered right now: they are hidden or held by an accepted barter. Add another item or service to offer.`
            : t`You have nothing to offer yet. Add an item or a service first, then propose a barter.`}
        </p>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={close}>
            <Trans>Close</Trans>
          </Button>
          <Button
            onClick={() => {
              close();
              openAddItem();
            }}
          >
            <Trans>Add an Item</Trans>
          </Button>
        </div>
      </div>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5">
      <div className="grid gap-5 md:grid-cols-2">
        <Controller
          control={form.control}
          name="offeredItemIds"
          render={({ field }) => (
            <ItemChoice
              legend={t`You offer`}
              options={mine}
              value={field.value}
              onChange={field.onChange}
              error={errors.offeredItemIds?.message}
              footer={<LoadMoreButton query={myItems} label={t`Load More of Your Items`} />}
            />
          )}
        />
        <Controller
          control={form.control}
          name="requestedItemIds"
          render={({ field }) => (
            <ItemChoice
              legend={t`You ask for`}
              options={theirs}
              value={field.value}
              onChange={field.onChange}
              error={errors.requestedItemIds?.message}
              footer={<LoadMoreButton query={theirItems} label={t`Load More of Their Items`} />}
            />
          )}
        />
      </div>
      <FormField label={t`Message (optional)`} error={errors.message?.message}>
        <Textarea
          {...form.register('message')}
          placeholder={t`Say hello, suggest when and where to meet...`}
        />
      </FormField>
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={close}>
          <Trans>Cancel</Trans>
        </Button>
        <Button type="submit" disabled={mutation.isPending}>
          {mutation.isPending ? t`Sending...` : counter ? t`Send Counter Offer` : t`Send Proposal`}
        </Button>
      </div>
    </form>
  );
}
