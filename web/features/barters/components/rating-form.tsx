import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { Barter, RatingInput } from '#common/schemas/barters.ts';
import { RATING_REVEAL_DAYS } from '#common/trader-reputation.ts';
import { Button } from '#web/components/ui/button.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Stars } from '#web/components/ui/stars.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { withMessages } from '#web/i18n/i18n.ts';
import { BARTER_ACTION_MESSAGES } from '#web/lib/barter-labels.ts';
import { toastWriteError } from '#web/lib/content-errors.ts';
import { lazyResolver } from '#web/lib/lazy-resolver.ts';
import { useRateBarter } from '../api/barters';
import { formatDateTime } from '../barter-sides';

const STARS = [1, 2, 3, 4, 5] as const;

const ratingResolver = lazyResolver(() =>
  withMessages(() => import('../barter-resolvers')).then((m) => m.ratingResolver),
);

/**
 * The ratings of a completed barter: the viewer's and the other member's, once given. They are
 * revealed together (issue 30, ADR 074): the viewer sees their own at once, with until when the other
 * member does not; the other's shows once the viewer rates too, or on the day it comes out anyway.
 */
export function Ratings({ barter }: { barter: Barter }) {
  const { t } = useLingui();
  if (barter.status !== 'completed') return null;
  const name = barter.otherMember.displayName;
  const mineUntil = barter.myRatingHiddenUntil ? formatDateTime(barter.myRatingHiddenUntil) : null;
  const theirsUntil = barter.theirRatingHiddenUntil ? formatDateTime(barter.theirRatingHiddenUntil) : null;
  const rows = [
    {
      key: 'mine',
      label: t`Your rating`,
      rating: barter.myRating,
      note: mineUntil ? t`Hidden from ${name} until they rate this barter too, or until ${mineUntil}.` : null,
      missing: t`You have not rated this barter yet.`,
    },
    {
      key: 'theirs',
      label: t`${name}'s rating`,
      rating: barter.theirRating,
      note: null,
      missing: theirsUntil
        ? t`${name} rated this barter. Their rating is hidden until you rate it too, or until ${theirsUntil}.`
        : t`${name} has not rated this barter yet.`,
    },
  ];
  return (
    <section aria-labelledby="ratings-heading" className="grid gap-2">
      <h2 id="ratings-heading" className="font-semibold">
        <Trans>Ratings</Trans>
      </h2>
      <p className="text-sm text-slate-600">
        <Trans>
          Ratings are revealed together: each shows once both of you have rated, or {RATING_REVEAL_DAYS} days
          after the first.
        </Trans>
      </p>
      <dl className="grid gap-2 text-sm">
        {rows.map(({ key, label, rating, note, missing }) => (
          <div key={key} className="grid gap-1 rounded-lg border border-slate-200 bg-white p-3">
            <dt className="font-medium">{label}</dt>
            <dd className="grid gap-1 text-slate-700">
              {rating ? (
                <>
                  <Stars stars={rating.stars} />
                  {rating.comment ? <span className="whitespace-pre-line">{rating.comment}</span> : null}
                  {note ? <span className="text-slate-600">{note}</span> : null}
                </>
              ) : (
                missing
              )}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** Rate the other member once the barter is completed: 1-5 stars and an optional comment. */
export function RatingForm({ barter }: { barter: Barter }) {
  const { t } = useLingui();
  const id = useId();
  const rate = useRateBarter(barter.id);
  const name = barter.otherMember.displayName;
  const form = useForm<RatingInput>({
    resolver: ratingResolver,
    defaultValues: { comment: '' },
  });
  const starsError = form.formState.errors.stars?.message;
  // Awaited: mutate's own callbacks are dropped when the form unmounts, and a rated barter no longer
  // shows it.
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await rate.mutateAsync(values);
    } catch (error) {
      toastWriteError(error, t`comment`, t`Failed to send the rating. Please try again.`);
      return;
    }
    toast({ title: t`Rating Sent` });
  });
  return (
    <form
      onSubmit={onSubmit}
      onFocus={ratingResolver.preload}
      noValidate
      aria-label={t`Rate ${name}`}
      className="grid gap-4 rounded-xl border border-slate-200 bg-white p-4"
    >
      <Controller
        control={form.control}
        name="stars"
        render={({ field }) => (
          <fieldset className="grid gap-2" aria-describedby={starsError ? `${id}-stars` : undefined}>
            <legend className="mb-1 font-semibold">
              <Trans>How was your barter with {name}?</Trans>
            </legend>
            <div className="flex flex-wrap gap-2">
              {STARS.map((n) => (
                <label
                  key={n}
                  className="flex cursor-pointer items-center gap-1 rounded-lg border border-slate-300 px-3 py-2 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600/40"
                >
                  <input
                    type="radio"
                    name={`${id}-stars-input`}
                    value={n}
                    checked={field.value === n}
                    onChange={() => field.onChange(n)}
                    className="accent-brand-700"
                  />
                  <Plural value={n} one="# star" other="# stars" />
                </label>
              ))}
            </div>
            {starsError ? (
              <p id={`${id}-stars`} role="alert" className="text-sm font-medium text-red-700">
                {starsError}
              </p>
            ) : null}
          </fieldset>
        )}
      />
      <FormField label={t`Comment (optional)`} error={form.formState.errors.comment?.message}>
        <Textarea {...form.register('comment')} />
      </FormField>
      <div className="flex justify-end">
        <Button type="submit" disabled={rate.isPending}>
          {rate.isPending ? t`Sending...` : t(BARTER_ACTION_MESSAGES.rate)}
        </Button>
      </div>
    </form>
  );
}
