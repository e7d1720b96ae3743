import { Check, MapPin, PackagePlus, Search } from 'lucide-react';
import { type ReactNode, useId, useRef, useState } from 'react';
import type { CurrentUser } from '../../../../common/schemas/auth';
import type { Place } from '../../../../common/schemas/places';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/use-toast';
import { useOpenAddItem } from '../../listings/components/add-item-context';
import { WantFormDialog } from '../../listings/components/lazy-want-form-dialog';
import { useUpdateProfile } from '../../profile/api/update-profile';
import { LocationPicker } from '../../profile/components/location-picker';
import { allStepsDone, useGettingStarted, useSetGettingStartedCompleted } from '../api/getting-started';

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
  const steps = query.data;
  if (!steps || steps.completed) return null;
  const done = allStepsDone(steps);
  const count = [steps.area, steps.want, steps.item].filter(Boolean).length;
  const current = !steps.area ? 'area' : !steps.want ? 'want' : !steps.item ? 'item' : null;

  const putAway = () =>
    setCompleted.mutate(true, {
      onError: () =>
        toast({
          title: 'Error',
          description: 'That did not work. Please try again.',
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
          {done ? 'You are all set' : 'Get started in three steps'}
        </h2>
        <p className="text-sm text-slate-600">{count} of 3 done</p>
      </div>
      {done ? (
        <p className="text-sm text-slate-700">
          Neighbors within your distance who offer what you want appear in Barter Match below, and those who
          want what you offer see your item.
        </p>
      ) : null}
      <ol className="grid gap-3">
        <Step
          number={1}
          title="Set your area"
          done={steps.area}
          current={current === 'area'}
          doneText={user.location ? `Your area: ${user.location}` : 'Your area is set.'}
          icon={<MapPin className="h-4 w-4" aria-hidden="true" />}
        >
          <p>
            Distances to neighbors' items are measured from here. Type your postal code, neighborhood or town.
          </p>
          <AreaForm user={user} />
        </Step>
        <Step
          number={2}
          title="Add a first want"
          done={steps.want}
          current={current === 'want'}
          doneText="Your Want List has a want."
          icon={<Search className="h-4 w-4" aria-hidden="true" />}
        >
          <p>What are you looking for? Barter Match shows neighbors' items that match your wants.</p>
          <Button className="justify-self-start" onClick={() => setWantOpen(true)}>
            Add a Want
          </Button>
        </Step>
        <Step
          number={3}
          title="Add a first item"
          done={steps.item}
          current={current === 'item'}
          doneText="You have an item to offer."
          icon={<PackagePlus className="h-4 w-4" aria-hidden="true" />}
        >
          <p>
            What could you offer a neighbor? A photo helps: the app suggests a title and category from it.
          </p>
          <Button className="justify-self-start" onClick={openAddItem}>
            Add an Item
          </Button>
        </Step>
      </ol>
      <div className="flex flex-wrap items-center gap-3">
        {done ? (
          <Button onClick={putAway} disabled={setCompleted.isPending}>
            Done
          </Button>
        ) : (
          <>
            <Button variant="secondary" onClick={putAway} disabled={setCompleted.isPending}>
              Skip for Now
            </Button>
            <p className="text-sm text-slate-600">You can come back to it from the account menu.</p>
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
          <span className="sr-only">{done ? ', done' : ', to do'}</span>
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

  const save = () => {
    if (!place) {
      setError('Choose your area from the suggestions.');
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
        onSuccess: () =>
          toast({ title: 'Area Saved', description: `Distances are measured from ${place.displayName}.` }),
        onError: () =>
          toast({
            title: 'Error',
            description: 'Failed to update profile. Please try again.',
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
        Your area
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
        {update.isPending ? 'Saving...' : 'Save Area'}
      </Button>
    </form>
  );
}
