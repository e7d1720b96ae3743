import { Trans, useLingui } from '@lingui/react/macro';
import { CalendarPlus, Clock, MapPin } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import {
  HAND_OVER_PLACE_MAX_LENGTH,
  HAND_OVER_PLAN_ERROR_CODES,
  HAND_OVER_PLAN_MAX_DAYS_AHEAD,
  HAND_OVER_PLAN_MAX_MINUTES,
  HAND_OVER_PLAN_MIN_MINUTES,
  handOverPlanIcsPath,
  RUNNING_LATE_MINUTES,
  type RunningLateMinutes,
} from '#common/hand-over-plan-rules.ts';
import type { Barter } from '#common/schemas/barters.ts';
import type { HandOverPlan } from '#common/schemas/hand-over-plans.ts';
import type { HandOverPlaces } from '#common/schemas/public-spots.ts';
import { Button } from '#web/components/ui/button.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { formatDate } from '#web/i18n/format.ts';
import { ApiError, serverMessageOf } from '#web/lib/api-client.ts';
import { PUBLIC_SPOT_KIND_LABELS } from '#web/lib/public-spot-kinds.ts';
import {
  type PlanChange,
  useChangeHandOverPlan,
  useHandOverPlaces,
  useHandOverPlan,
} from '../api/hand-over-plans';

const MINUTE = 60_000;

/** A date as a datetime-local input holds it, in the browser's time zone ("2030-05-01T10:00"). */
function localInputValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The window in words: "Sat, Nov 29, 2:00 PM – 3:00 PM" (the end's date too when it is another day). */
export function formatWindow(plan: Pick<HandOverPlan, 'startsAt' | 'endsAt'>): string {
  const start = new Date(plan.startsAt);
  const end = new Date(plan.endsAt);
  const sameDay = start.toDateString() === end.toDateString();
  const from = formatDate(start, {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
  const to = sameDay
    ? formatDate(end, { hour: 'numeric', minute: '2-digit' })
    : formatDate(end, {
        weekday: 'short',
        month: 'short',
        day: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
      });
  return `${from} – ${to}`;
}

/**
 * Planning the hand-over (issue 30, ADR 077), on an accepted barter's page: the current plan (a time
 * window and a place) and what the viewer may do with it: propose one, accept the other member's or
 * suggest another, and once agreed add it to a calendar, say they are running late, or reschedule.
 * The other member's page follows each change live.
 */
export function HandOverPlanSection({ barter }: { barter: Barter }) {
  const { t } = useLingui();
  const name = barter.otherMember.displayName;
  const query = useHandOverPlan(barter.id);
  const change = useChangeHandOverPlan(barter.id);
  const [editing, setEditing] = useState(false);
  const plan = query.data ?? null;

  const run = async (next: PlanChange, done: string): Promise<boolean> => {
    try {
      await change.mutateAsync(next);
    } catch (failure) {
      toast({
        title: t`Error`,
        description:
          failure instanceof ApiError && failure.code === HAND_OVER_PLAN_ERROR_CODES.changed
            ? t`The plan changed meanwhile: here is the new one.`
            : serverMessageOf(failure, t`That did not work. Please try again.`),
        variant: 'destructive',
      });
      return false;
    }
    toast({ title: done });
    return true;
  };

  return (
    <section
      aria-labelledby="hand-over-plan-heading"
      className="grid gap-4 rounded-xl border border-slate-200 bg-white p-4"
    >
      <h2 id="hand-over-plan-heading" className="font-semibold">
        <Trans>Hand-over plan</Trans>
      </h2>
      {query.isPending ? (
        <p className="text-sm text-slate-600">
          <Trans>Loading the plan...</Trans>
        </p>
      ) : query.isError ? (
        <p role="alert" className="text-sm text-red-700">
          <Trans>The plan could not be loaded. Please reload the page.</Trans>
        </p>
      ) : plan === null ? (
        <p className="text-sm text-slate-700">
          <Trans>
            No time and place yet. Propose a window and a public place to meet: {name} accepts it or suggests
            another.
          </Trans>
        </p>
      ) : (
        <PlanSummary plan={plan} name={name} />
      )}
      {plan?.late ? <LateNote late={plan.late} name={name} /> : null}
      {!query.isPending && !query.isError && !editing ? (
        <div className="flex flex-wrap gap-2">
          {plan === null ? (
            <Button onClick={() => setEditing(true)}>
              <Trans>Propose a time and place</Trans>
            </Button>
          ) : plan.state === 'proposed' && plan.proposedBy === 'other' ? (
            <>
              <Button
                disabled={change.isPending}
                onClick={() => void run({ kind: 'accept', version: plan.version }, t`Plan Agreed`)}
              >
                <Trans>Accept this plan</Trans>
              </Button>
              <Button variant="secondary" onClick={() => setEditing(true)}>
                <Trans>Suggest another</Trans>
              </Button>
            </>
          ) : plan.state === 'proposed' ? (
            <Button variant="secondary" onClick={() => setEditing(true)}>
              <Trans>Change your proposal</Trans>
            </Button>
          ) : (
            <>
              <Button asChild>
                <a href={handOverPlanIcsPath(barter.id)} download={`hand-over-${barter.id}.ics`}>
                  <CalendarPlus className="h-4 w-4" aria-hidden="true" />
                  <Trans>Add to calendar</Trans>
                </a>
              </Button>
              <Button variant="secondary" onClick={() => setEditing(true)}>
                <Trans>Reschedule</Trans>
              </Button>
            </>
          )}
        </div>
      ) : null}
      {plan?.state === 'agreed' && !editing ? (
        <RunningLate
          disabled={change.isPending}
          onLate={(minutes) =>
            void run({ kind: 'late', version: plan.version, minutes }, t`${name} has been told`)
          }
        />
      ) : null}
      {editing ? (
        <PlanForm
          barterId={barter.id}
          plan={plan}
          pending={change.isPending}
          onCancel={() => setEditing(false)}
          onSubmit={async (proposal) => {
            const sent = await run(
              { kind: 'propose', proposal: { ...proposal, replaces: plan?.version ?? null } },
              t`Plan Sent to ${name}`,
            );
            if (sent) setEditing(false);
          }}
        />
      ) : null}
    </section>
  );
}

function PlanSummary({ plan, name }: { plan: HandOverPlan; name: string }) {
  const window = formatWindow(plan);
  const state =
    plan.state === 'agreed' ? (
      <Trans>Agreed by both of you.</Trans>
    ) : plan.proposedBy === 'me' ? (
      <Trans>You proposed this. Waiting for {name} to answer.</Trans>
    ) : (
      <Trans>{name} proposed this. Accept it or suggest another.</Trans>
    );
  return (
    <div className="grid gap-2 text-sm text-slate-800" data-testid="hand-over-plan">
      <p className="flex items-start gap-2">
        <Clock className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
        <span className="min-w-0 break-words">{window}</span>
      </p>
      <p className="flex items-start gap-2">
        <MapPin className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
        <span className="min-w-0 break-words whitespace-pre-line">{plan.place}</span>
      </p>
      <p className="font-medium">{state}</p>
    </div>
  );
}

function LateNote({ late, name }: { late: NonNullable<HandOverPlan['late']>; name: string }) {
  const minutes = late.minutes;
  const when = formatDate(late.at, { hour: 'numeric', minute: '2-digit' });
  return (
    <p role="status" className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
      {late.by === 'other' ? (
        <Trans>
          {name} is running {minutes} minutes late (said at {when}).
        </Trans>
      ) : (
        <Trans>
          You told {name} you are running {minutes} minutes late (at {when}).
        </Trans>
      )}
    </p>
  );
}

function RunningLate({
  disabled,
  onLate,
}: {
  disabled: boolean;
  onLate: (minutes: RunningLateMinutes) => void;
}) {
  const { t } = useLingui();
  return (
    <fieldset className="grid gap-2">
      <legend className="text-sm font-medium text-slate-800">
        <Trans>I'm running late</Trans>
      </legend>
      <div className="flex flex-wrap gap-2">
        {RUNNING_LATE_MINUTES.map((minutes) => (
          <Button
            key={minutes}
            variant="secondary"
            disabled={disabled}
            aria-label={t`I'm running ${minutes} minutes late`}
            onClick={() => onLate(minutes)}
          >
            <Trans>{minutes} min</Trans>
          </Button>
        ))}
      </div>
    </fieldset>
  );
}

/** The window and the place; checked here first, in the member's language, then by the server. */
function PlanForm({
  barterId,
  plan,
  pending,
  onCancel,
  onSubmit,
}: {
  barterId: number;
  plan: HandOverPlan | null;
  pending: boolean;
  onCancel: () => void;
  onSubmit: (proposal: {
    startsAt: string;
    endsAt: string;
    place: string;
    spotId: number | null;
  }) => Promise<void>;
}) {
  const { t } = useLingui();
  const places = useHandOverPlaces(barterId);
  const spots = places.data?.spots ?? [];
  const [start, setStart] = useState(() => {
    const suggested = new Date(Date.now() + 24 * 60 * MINUTE);
    suggested.setMinutes(0, 0, 0);
    return localInputValue(plan ? new Date(plan.startsAt) : suggested);
  });
  const [end, setEnd] = useState(() => {
    if (plan) return localInputValue(new Date(plan.endsAt));
    const suggested = new Date(Date.now() + 25 * 60 * MINUTE);
    suggested.setMinutes(0, 0, 0);
    return localInputValue(suggested);
  });
  const [place, setPlace] = useState(plan?.place ?? '');
  const [errors, setErrors] = useState<{ start?: string; end?: string; place?: string }>({});

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const startsAt = new Date(start);
    const endsAt = new Date(end);
    const next: typeof errors = {};
    const days = HAND_OVER_PLAN_MAX_DAYS_AHEAD;
    const shortest = HAND_OVER_PLAN_MIN_MINUTES;
    const longest = HAND_OVER_PLAN_MAX_MINUTES / 60;
    if (Number.isNaN(startsAt.getTime())) next.start = t`Choose when the hand-over window starts.`;
    else if (startsAt.getTime() <= Date.now()) next.start = t`The hand-over must start in the future.`;
    else if (startsAt.getTime() > Date.now() + days * 24 * 60 * MINUTE)
      next.start = t`The hand-over must start within ${days} days.`;
    if (Number.isNaN(endsAt.getTime())) next.end = t`Choose when the hand-over window ends.`;
    else if (!next.start) {
      const minutes = (endsAt.getTime() - startsAt.getTime()) / MINUTE;
      if (minutes < shortest) next.end = t`The window must be at least ${shortest} minutes long.`;
      else if (minutes > HAND_OVER_PLAN_MAX_MINUTES)
        next.end = t`The window must be at most ${longest} hours long.`;
    }
    if (place.trim() === '') next.place = t`Say where you will meet.`;
    setErrors(next);
    if (next.start || next.end || next.place) return;
    // A spot from the list is sent by its id (the server names the place after it); typed text as is.
    const spot = spots.find((s) => s.name === place.trim()) ?? null;
    await onSubmit({
      startsAt: startsAt.toISOString(),
      endsAt: endsAt.toISOString(),
      place: place.trim(),
      spotId: spot?.id ?? null,
    });
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={t`Propose a time and place`}
      className="grid gap-3 sm:max-w-md"
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <FormField label={t`From`} error={errors.start}>
          <Input type="datetime-local" value={start} onChange={(event) => setStart(event.target.value)} />
        </FormField>
        <FormField label={t`Until`} error={errors.end}>
          <Input type="datetime-local" value={end} onChange={(event) => setEnd(event.target.value)} />
        </FormField>
      </div>
      {places.data ? (
        <PlaceSuggestions places={places.data} place={place.trim()} onChoose={(name) => setPlace(name)} />
      ) : null}
      <FormField label={t`Place`} error={errors.place}>
        <Input
          value={place}
          maxLength={HAND_OVER_PLACE_MAX_LENGTH}
          placeholder={t`A public spot: library entrance, station, café`}
          onChange={(event) => setPlace(event.target.value)}
        />
      </FormField>
      <p className="text-sm text-slate-600">
        <Trans>Meet in a public place in daylight when you can.</Trans>
      </p>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={pending}>
          {pending ? t`Sending...` : t`Send this plan`}
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel}>
          <Trans>Cancel</Trans>
        </Button>
      </div>
    </form>
  );
}

/**
 * Where to meet (ADR 080): the moderators' public spots near both members, fairest first (choosing
 * one fills the place), or, when none is near, the fairest named area between them as one click.
 * Names only: nothing here says how far anyone is.
 */
function PlaceSuggestions({
  places,
  place,
  onChoose,
}: {
  places: HandOverPlaces;
  place: string;
  onChoose: (name: string) => void;
}) {
  const { t } = useLingui();
  if (places.spots.length > 0) {
    return (
      <fieldset className="grid min-w-0 gap-2">
        <legend className="text-sm font-medium text-slate-800">
          <Trans>Public spots near you both</Trans>
        </legend>
        <p className="text-xs text-slate-600">
          <Trans>Kept by moderators, each from a public source; the fairest to both of you first.</Trans>
        </p>
        <div className="grid gap-1">
          {places.spots.map((spot) => (
            <label key={spot.id} className="flex min-w-0 items-start gap-2 text-sm">
              <input
                type="radio"
                name="public-spot"
                className="mt-1"
                checked={place === spot.name}
                onChange={() => onChoose(spot.name)}
              />
              <span className="min-w-0 break-words">
                <span className="font-medium">{spot.name}</span> · {t(PUBLIC_SPOT_KIND_LABELS[spot.kind])} ·{' '}
                {spot.area}
              </span>
            </label>
          ))}
        </div>
      </fieldset>
    );
  }
  if (!places.fairestArea) return null;
  const area = places.fairestArea.name;
  return (
    <div className="grid min-w-0 gap-1">
      <Button
        type="button"
        variant="secondary"
        className="h-auto min-w-0 justify-start whitespace-normal break-words py-2 text-left"
        aria-pressed={place === area}
        onClick={() => onChoose(area)}
      >
        <MapPin className="h-4 w-4 shrink-0" aria-hidden="true" />
        <span className="min-w-0">
          <Trans>Suggested: {area}</Trans>
        </span>
      </Button>
      <p className="text-xs text-slate-600">
        <Trans>
          No public spot on the list is near you both: this named area is the fairest between you. Agree on an
          exact public place in it.
        </Trans>
      </p>
    </div>
  );
}
