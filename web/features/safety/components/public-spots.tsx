import { Trans, useLingui } from '@lingui/react/macro';
import { type FormEvent, useState } from 'react';
import type { Place } from '#common/schemas/places.ts';
import {
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
import { useAddPublicSpot, usePublicSpots, useRemovePublicSpot } from '../api/public-spots-api';

/**
 * Public spots for hand-overs (issue 30, ADR 080), on the moderators' screen: add a spot (name, kind,
 * the source anyone can check, and its place chosen through the place search, never typed as
 * coordinates), see the list by area, remove one. Members see the spots near both of them when they
 * plan a hand-over.
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
      <div>
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
  const [name, setName] = useState('');
  const [kind, setKind] = useState<PublicSpotKind | ''>('');
  const [source, setSource] = useState('');
  const [placeText, setPlaceText] = useState('');
  const [place, setPlace] = useState<Place | null>(null);
  const [errors, setErrors] = useState<{ name?: string; kind?: string; source?: string; place?: string }>({});

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
      await add.mutateAsync({
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
    toast({ title: t`Spot added` });
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
      aria-label={t`Add a public spot`}
      className="grid gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:max-w-lg"
    >
      <FormField label={t`Name`} error={errors.name}>
        <Input
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
      <div>
        <Button type="submit" disabled={add.isPending}>
          {add.isPending ? t`Adding...` : t`Add this spot`}
        </Button>
      </div>
    </form>
  );
}
