import { Trans, useLingui } from '@lingui/react/macro';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { Place } from '#common/schemas/places.ts';
import {
  type AddPublicSpotInput,
  PUBLIC_SPOT_KINDS,
  PUBLIC_SPOT_NAME_MAX_LENGTH,
  PUBLIC_SPOT_SOURCE_MAX_LENGTH,
  type PublicSpot,
  type PublicSpotKind,
} from '#common/schemas/public-spots.ts';
import { LocationPicker } from '#web/components/location-picker.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Select } from '#web/components/ui/select.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { formatDate } from '#web/i18n/format.ts';
import { serverMessageOf } from '#web/lib/api-client.ts';
import { PUBLIC_SPOT_KIND_LABELS } from '#web/lib/public-spot-kinds.ts';
import {
  useAddPublicSpot,
  useEditPublicSpot,
  usePublicSpots,
  useRemovePublicSpot,
} from '../api/public-spots-api';

/**
 * Public spots for hand-overs (issue 30, ADR 080), on the moderators' screen: add a spot (name, kind,
 * the source anyone can check, and its place chosen through the place search, never typed as
 * coordinates), see the list by area, correct one (Edit opens the same form in its place) or remove
 * one. Members see the spots near both of them when they plan a hand-over.
 */
export function PublicSpotsPanel() {
  const { t } = useLingui();
  const spots = usePublicSpots();
  const remove = useRemovePublicSpot();
  return (
    <section aria-labelledby="public-spots-heading" className="grid gap-4">
      <h2 id="public-spots-heading" className="text-xl font-semibold text-slate-900">
        <Trans>Public spots for hand-overs</Trans>
      </h2>
      <p className="text-sm text-slate-700">
        <Trans>
          Members planning a hand-over are offered the spots near both of them. Add only real public places
          (libraries, stations, cafés, police safe-trade spots), each with a source anyone can check.
        </Trans>
      </p>
      <AddSpotForm />
      {spots.isPending ? (
        <p className="text-sm text-slate-600">
          <Trans>Loading the spots...</Trans>
        </p>
      ) : spots.isError ? (
        <p role="alert" className="text-sm text-red-700">
          <Trans>The spots could not be loaded. Please reload the page.</Trans>
        </p>
      ) : spots.data.length === 0 ? (
        <p className="text-sm text-slate-600">
          <Trans>No public spots yet.</Trans>
        </p>
      ) : (
        <ul aria-label={t`Public spots`} className="grid gap-2">
          {spots.data.map((spot) => (
            <SpotRow
              key={spot.id}
              spot={spot}
              removing={remove.isPending}
              onRemove={async () => {
                try {
                  await remove.mutateAsync(spot.id);
                  toast({ title: t`Spot removed` });
                } catch (failure) {
                  toast({
                    title: t`Error`,
                    description: serverMessageOf(failure, t`That did not work. Please try again.`),
                    variant: 'destructive',
                  });
                }
              }}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function SpotRow({
  spot,
  removing,
  onRemove,
}: {
  spot: PublicSpot;
  removing: boolean;
  onRemove: () => void;
}) {
  const { t } = useLingui();
  const edit = useEditPublicSpot();
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  // Back on the Edit button after saving or cancelling, so a keyboard carries on where it was.
  const [refocus, setRefocus] = useState(false);
  useEffect(() => {
    if (!editing && refocus) {
      editButton.current?.focus();
      setRefocus(false);
    }
  }, [editing, refocus]);
  const close = () => {
    setEditing(false);
    setRefocus(true);
  };
  if (editing) {
    return (
      <li className="grid min-w-0 gap-1 rounded-lg border border-slate-200 bg-white p-3 text-sm">
        <SpotForm
          label={t`Edit ${spot.name}`}
          initial={spot}
          submitLabel={t`Save changes`}
          pendingLabel={t`Saving...`}
          pending={edit.isPending}
          onCancel={close}
          onSubmit={async (input) => {
            await edit.mutateAsync({ id: spot.id, input });
            toast({ title: t`Spot saved` });
            close();
          }}
        />
      </li>
    );
  }
  const added = formatDate(spot.addedAt, { year: 'numeric', month: 'short', day: 'numeric' });
  const by = spot.addedBy ?? t`a former moderator`;
  const isLink = /^https?:\/\//i.test(spot.source);
  return (
    <li className="grid min-w-0 gap-1 rounded-lg border border-slate-200 bg-white p-3 text-sm">
      <p className="min-w-0 break-words">
        <span className="font-medium">{spot.name}</span> · {t(PUBLIC_SPOT_KIND_LABELS[spot.kind])} ·{' '}
        {spot.area}
      </p>
      <p className="min-w-0 break-words text-slate-700">{spot.place}</p>
      <p className="min-w-0 break-words text-slate-700">
        <Trans>Source:</Trans>{' '}
        {isLink ? (
          <a
            href={spot.source}
            rel="noreferrer noopener"
            target="_blank"
            className="text-brand-700 underline"
          >
            {spot.source}
          </a>
        ) : (
          spot.source
        )}
      </p>
      <p className="text-xs text-slate-600">
        <Trans>
          Added by {by} on {added}
        </Trans>
      </p>
      <div className="flex flex-wrap gap-2">
        <Button
          ref={editButton}
          variant="secondary"
          size="sm"
          aria-label={t`Edit ${spot.name}`}
          onClick={() => setEditing(true)}
        >
          <Trans>Edit</Trans>
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={removing}
          aria-label={t`Remove ${spot.name}`}
          onClick={onRemove}
        >
          <Trans>Remove</Trans>
        </Button>
      </div>
    </li>
  );
}

function AddSpotForm() {
  const { t } = useLingui();
  const add = useAddPublicSpot();
  return (
    <SpotForm
      label={t`Add a public spot`}
      submitLabel={t`Add this spot`}
      pendingLabel={t`Adding...`}
      pending={add.isPending}
      resetAfter
      onSubmit={async (input) => {
        await add.mutateAsync(input);
        toast({ title: t`Spot added` });
      }}
    />
  );
}

/**
 * A spot's fields, checked here before anything is sent (the server checks them again with the
 * shared schema): adding one, or correcting one in the list (`initial`, with Cancel).
 */
function SpotForm({
  label,
  initial,
  submitLabel,
  pendingLabel,
  pending,
  resetAfter = false,
  onSubmit,
  onCancel,
}: {
  label: string;
  initial?: PublicSpot;
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  resetAfter?: boolean;
  /** Sends the spot; a refusal's sentence is shown in a toast. */
  onSubmit: (input: AddPublicSpotInput) => Promise<void>;
  onCancel?: () => void;
}) {
  const { t } = useLingui();
  const [name, setName] = useState(initial?.name ?? '');
  const [kind, setKind] = useState<PublicSpotKind | ''>(initial?.kind ?? '');
  const [source, setSource] = useState(initial?.source ?? '');
  const [placeText, setPlaceText] = useState(initial?.place ?? '');
  // A spot being corrected keeps its place until another is chosen in the search.
  const [place, setPlace] = useState<Place | null>(
    initial
      ? {
          id: `public-spot:${initial.id}`,
          displayName: initial.place,
          latitude: initial.latitude,
          longitude: initial.longitude,
        }
      : null,
  );
  const [errors, setErrors] = useState<{ name?: string; kind?: string; source?: string; place?: string }>({});
  const nameField = useRef<HTMLInputElement>(null);
  // Opening a spot's form puts the keyboard in its first field (once: a refetch of the list does not).
  const focusFirst = useRef(initial !== undefined);
  useEffect(() => {
    if (!focusFirst.current) return;
    focusFirst.current = false;
    nameField.current?.focus();
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next: typeof errors = {};
    if (name.trim() === '') next.name = t`Name the spot.`;
    if (kind === '') next.kind = t`Choose what kind of spot it is.`;
    if (source.trim() === '') next.source = t`Say where this spot comes from: a link or a citation.`;
    if (!place) next.place = t`Choose the spot’s place from the search.`;
    setErrors(next);
    if (next.name || next.kind || next.source || !place || kind === '') return;
    try {
      await onSubmit({
        name: name.trim(),
        kind,
        source: source.trim(),
        place: { displayName: place.displayName, latitude: place.latitude, longitude: place.longitude },
      });
    } catch (failure) {
      toast({
        title: t`Error`,
        description: serverMessageOf(failure, t`That did not work. Please try again.`),
        variant: 'destructive',
      });
      return;
    }
    if (!resetAfter) return;
    setName('');
    setKind('');
    setSource('');
    setPlaceText('');
    setPlace(null);
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={label}
      className={
        initial
          ? 'grid min-w-0 gap-3'
          : 'grid gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:max-w-lg'
      }
    >
      <FormField label={t`Name`} error={errors.name}>
        <Input
          ref={nameField}
          value={name}
          maxLength={PUBLIC_SPOT_NAME_MAX_LENGTH}
          onChange={(e) => setName(e.target.value)}
        />
      </FormField>
      <FormField label={t`Kind`} error={errors.kind}>
        <Select value={kind} onChange={(e) => setKind(e.target.value as PublicSpotKind | '')}>
          <option value="">{t`Choose...`}</option>
          {PUBLIC_SPOT_KINDS.map((k) => (
            <option key={k} value={k}>
              {t(PUBLIC_SPOT_KIND_LABELS[k])}
            </option>
          ))}
        </Select>
      </FormField>
      <FormField label={t`Where it is`} error={errors.place}>
        <LocationPicker
          value={place ? place.displayName : placeText}
          onTextChange={(text) => {
            setPlaceText(text);
            setPlace(null);
          }}
          onSelect={(chosen) => {
            setPlace(chosen);
            setPlaceText(chosen.displayName);
          }}
        />
      </FormField>
      <FormField label={t`Source (a link or a citation)`} error={errors.source}>
        <Input
          value={source}
          maxLength={PUBLIC_SPOT_SOURCE_MAX_LENGTH}
          placeholder="https://"
          onChange={(e) => setSource(e.target.value)}
        />
      </FormField>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={pending}>
          {pending ? pendingLabel : submitLabel}
        </Button>
        {onCancel ? (
          <Button type="button" variant="secondary" onClick={onCancel}>
            <Trans>Cancel</Trans>
          </Button>
        ) : null}
      </div>
    </form>
  );
}
