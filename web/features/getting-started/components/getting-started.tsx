import { Trans, useLingui } from '@lingui/react/macro';
import { Check, MapPin, PackagePlus, Search } from 'lucide-react';
import { type ReactNode, useId, useRef, useState } from 'react';
import type { CurrentUser } from '#common/schemas/auth.ts';
import type { Place } from '#common/schemas/places.ts';
import { useOpenAddItem, WantFormDialog } from '#web/components/feature-slots.tsx';
import { LocationPicker } from '#web/components/location-picker.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { formatPlaceName } from '#web/i18n/place-names.ts';
import { allStepsDone, useGettingStarted, useSetGettingStartedCompleted } from '#web/lib/getting-started.ts';
import { useUpdateProfile } from '#web/lib/update-profile.ts';

/**
 * The guided start on the home page (issue 17): set your area, add a first want, add a first item.
 * Each step is done when the member has it, so the guide picks up where they are on any device;
 * "Skip for now" puts it away (the account menu brings it back). Shown until skipped or finished.
 */
export function GettingStarted({ user }: { user: CurrentUser }) {
  const query = useGettingStarted();
  const setCompleted = useSetGettingStartedCompleted();
  const heading = useRef<HTMLHeadingElement>(null);
  const [wantOpen, setWantOpen] = useState(false);
  const openAddItem = useOpenAddItem();
  const { t } = useLingui();
  const steps = query.data;
  if (!steps || steps.completed) return null;
  const done = allStepsDone(steps);
  const location = user.location ? formatPlaceName(user.location) : null;
  const count = [steps.area, steps.want, steps.item].filter(Boolean).length;
  const current = !steps.area ? 'area' : !steps.want ? 'want' : !steps.item ? 'item' : null;

  const putAway = () =>
    setCompleted.mutate(true, {
      onError: () =>
        toast({
          title: t`Error`,
          description: t`That did not work. Please try again.`,
          variant: 'destructive',
        }),
    });

  return (
    <section
      aria-labelledby="getting-started-heading"
      className="mb-6 grid gap-4 rounded-2xl border border-brand-200 bg-white p-5 shadow-sm"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2
          id="getting-started-heading"
          ref={heading}
          tabIndex={-1}
          className="text-lg font-semibold outline-none"
        >
          {done ? t`You are all set` : t`Get started in three steps`}
        </h2>
        <p className="text-sm text-slate-600">
          <Trans>{count} of 3 done</Trans>
        </p>
      </div>
      {done ? (
        <p className="text-sm text-slate-700">
          <Trans>
            Neighbors within your distance who offer what you want appear in Barter Match below, and those who
            want what you offer see your item.
          </Trans>
        </p>
      ) : null}
      <ol className="grid gap-3">
        <Step
          number={1}
          title={t`Set your area`}
          done={steps.area}
          current={current === 'area'}
          doneText={location ? t`Your area: ${location}` : t`Your area is set.`}
          icon={<MapPin className="h-4 w-4" aria-hidden="true" />}
        >
          <p>
            <Trans>
              Distances to neighbors' items are measured from here. Type your postal code, neighborhood or
              town.
            </Trans>
          </p>
          <AreaForm user={user} />
        </Step>
        <Step
          number={2}
          title={t`Add a first want`}
          done={steps.want}
          current={current === 'want'}
          doneText={t`Your Want List has a want.`}
          icon={<Search className="h-4 w-4" aria-hidden="true" />}
        >
          <p>
            <Trans>
              What are you looking for? Barter Match shows neighbors' items that match your wants.
            </Trans>
          </p>
          <Button className="justify-self-start" onClick={() => setWantOpen(true)}>
            <Trans>Add a Want</Trans>
          </Button>
        </Step>
        <Step
          number={3}
          title={t`Add a first item`}
          done={steps.item}
          current={current === 'item'}
          doneText={t`You have an item to offer.`}
          icon={<PackagePlus className="h-4 w-4" aria-hidden="true" />}
        >
          <p>
            <Trans>
              What could you offer a neighbor? A photo helps: the app suggests a title and category from it.
            </Trans>
          </p>
          <Button className="justify-self-start" onClick={openAddItem}>
            <Trans>Add an Item</Trans>
          </Button>
        </Step>
      </ol>
      <div className="flex flex-wrap items-center gap-3">
        {done ? (
          <Button onClick={putAway} disabled={setCompleted.isPending}>
            <Trans>Done</Trans>
          </Button>
        ) : (
          <>
            <Button variant="secondary" onClick={putAway} disabled={setCompleted.isPending}>
              <Trans>Skip for Now</Trans>
            </Button>
            <p className="text-sm text-slate-600">
              <Trans>You can come back to it from the account menu.</Trans>
            </p>
          </>
        )}
      </div>
      <WantFormDialog open={wantOpen} onOpenChange={setWantOpen} />
    </section>
  );
}

/** One step: its number and title, a check once done, and while it is the current one, what to do. */
function Step({
  number,
  title,
  done,
  current,
  doneText,
  icon,
  children,
}: {
  number: number;
  title: string;
  done: boolean;
  current: boolean;
  doneText: string;
  icon: ReactNode;
  children: ReactNode;
}) {
  return (
    <li
      aria-current={current ? 'step' : undefined}
      className="grid gap-2 rounded-xl border border-slate-200 p-3 aria-[current=step]:border-brand-300 aria-[current=step]:bg-brand-50"
    >
      <div className="flex items-center gap-2">
        <span
          className={
            done
              ? 'flex h-6 w-6 items-center justify-center rounded-full bg-green-700 text-white'
              : 'flex h-6 w-6 items-center justify-center rounded-full bg-slate-200 text-xs font-semibold text-slate-800'
          }
        >
          {done ? <Check className="h-4 w-4" aria-hidden="true" /> : number}
        </span>
        <h3 className="flex items-center gap-1 font-medium">
          {icon}
          {title}
          <span className="sr-only">{done ? <Trans>, done</Trans> : <Trans>, to do</Trans>}</span>
        </h3>
      </div>
      {done ? (
        <p className="text-sm text-slate-700">{doneText}</p>
      ) : current ? (
        <div className="grid gap-2 text-sm text-slate-700">{children}</div>
      ) : null}
    </li>
  );
}

/** The first step's form: a place from the location picker, saved with the member's travel distance. */
function AreaForm({ user }: { user: CurrentUser }) {
  const update = useUpdateProfile();
  const [text, setText] = useState('');
  const [place, setPlace] = useState<Place | null>(null);
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const errorId = useId();
  const { t } = useLingui();

  const save = () => {
    if (!place) {
      setError(t`Choose your area from the suggestions.`);
      return;
    }
    setError(null);
    update.mutate(
      {
        location: place.displayName,
        latitude: place.latitude,
        longitude: place.longitude,
        maxTravelDistance: user.maxTravelDistance,
      },
      {
        onSuccess: () => {
          const area = formatPlaceName(place.displayName);
          toast({ title: t`Area Saved`, description: t`Distances are measured from ${area}.` });
        },
        onError: () =>
          toast({
            title: t`Error`,
            description: t`Failed to update profile. Please try again.`,
            variant: 'destructive',
          }),
      },
    );
  };

  return (
    <form
      noValidate
      className="grid max-w-xl gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <label htmlFor={inputId} className="font-medium text-slate-900">
        <Trans>Your area</Trans>
      </label>
      <LocationPicker
        id={inputId}
        value={place ? place.displayName : text}
        onTextChange={(next) => {
          setText(next);
          setPlace(null);
        }}
        onSelect={(chosen) => {
          setPlace(chosen);
          setError(null);
        }}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      />
      {error ? (
        <p id={errorId} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <Button type="submit" className="justify-self-start" disabled={update.isPending}>
        {update.isPending ? t`Saving...` : t`Save Area`}
      </Button>
    </form>
  );
}
