import { Trans, useLingui } from '@lingui/react/macro';
import { useController, useForm } from 'react-hook-form';
import { TRAVEL_DISTANCE_MAX, TRAVEL_DISTANCE_MIN } from '#common/constants.ts';
import type { CurrentUser } from '#common/schemas/auth.ts';
import type { ProfileFormValues, ProfileInput } from '#common/schemas/profile.ts';
import { LocationPicker } from '#web/components/location-picker.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Select } from '#web/components/ui/select.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { formatRadius } from '#web/i18n/format.ts';
import { i18n, withMessages } from '#web/i18n/i18n.ts';
import { usesMiles } from '#web/i18n/locales.ts';
import { lazyResolver } from '#web/lib/lazy-resolver.ts';
import { useUpdateProfile } from '#web/lib/update-profile.ts';

const resolver = lazyResolver(() =>
  withMessages(() => import('../profile-resolver')).then((m) => m.profileResolver),
);

function defaultsOf(user: CurrentUser): ProfileFormValues {
  return {
    location: user.location ?? '',
    latitude: user.latitude,
    longitude: user.longitude,
    maxTravelDistance: user.maxTravelDistance,
  };
}

/** Every travel distance a member may keep: whole miles, as the server stores them. */
const TRAVEL_DISTANCES_MILES = Array.from(
  { length: TRAVEL_DISTANCE_MAX - TRAVEL_DISTANCE_MIN + 1 },
  (_, index) => TRAVEL_DISTANCE_MIN + index,
);

/**
 * The Profile tab: location (through the location picker) and max travel distance. The distance is
 * typed in miles in English; where distances read in kilometres (Spanish, ADR 036) it is chosen
 * from the kilometres each whole mile makes ("10 km" keeps 6 miles), so what was chosen is what
 * shows again after saving, never a rounded neighbour (ADR 060).
 */
export function ProfileFormTab({ user }: { user: CurrentUser }) {
  const { t } = useLingui();
  const updateProfile = useUpdateProfile();
  const form = useForm<ProfileFormValues, unknown, ProfileInput>({
    resolver,
    defaultValues: defaultsOf(user),
  });
  const { errors } = form.formState;
  const miles = usesMiles(i18n.locale);
  const location = useController({ control: form.control, name: 'location' });

  const onSubmit = form.handleSubmit((values) =>
    updateProfile.mutate(values, {
      onSuccess: () => {
        form.reset(values);
        toast({ title: t`Success`, description: t`Your profile has been updated.` });
      },
      onError: () =>
        toast({
          title: t`Error`,
          description: t`Failed to update profile. Please try again.`,
          variant: 'destructive',
        }),
    }),
  );

  // Coordinates have no field of their own: their messages belong to the location they came with.
  const locationError = errors.location?.message ?? errors.latitude?.message ?? errors.longitude?.message;

  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold text-slate-900">
        <Trans>Profile Settings</Trans>
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        <Trans>
          Your location is used to show how far away neighbors' items are; others never see your exact
          position.
        </Trans>
      </p>
      <form onSubmit={onSubmit} onFocus={resolver.preload} noValidate className="mt-6 grid max-w-xl gap-6">
        <FormField label={t`Location`} error={locationError}>
          <LocationPicker
            name={location.field.name}
            value={location.field.value}
            onBlur={location.field.onBlur}
            onTextChange={(text) => {
              // Typed text is no longer the chosen place, so its coordinates go.
              location.field.onChange(text);
              form.setValue('latitude', null, { shouldDirty: true });
              form.setValue('longitude', null, { shouldDirty: true });
            }}
            onSelect={(place) => {
              form.setValue('location', place.displayName, { shouldDirty: true, shouldValidate: true });
              form.setValue('latitude', place.latitude, { shouldDirty: true });
              form.setValue('longitude', place.longitude, { shouldDirty: true, shouldValidate: true });
            }}
          />
        </FormField>
        {miles ? (
          <FormField label={t`Max Travel Distance (miles)`} error={errors.maxTravelDistance?.message}>
            <Input
              type="number"
              inputMode="numeric"
              min={TRAVEL_DISTANCE_MIN}
              max={TRAVEL_DISTANCE_MAX}
              step={1}
              className="max-w-40"
              {...form.register('maxTravelDistance', { valueAsNumber: true })}
            />
          </FormField>
        ) : (
          <FormField label={t`Max Travel Distance (km)`} error={errors.maxTravelDistance?.message}>
            <Select className="max-w-40" {...form.register('maxTravelDistance', { setValueAs: Number })}>
              {TRAVEL_DISTANCES_MILES.map((option) => (
                <option key={option} value={option}>
                  {formatRadius(option)}
                </option>
              ))}
            </Select>
          </FormField>
        )}
        <Button type="submit" className="justify-self-start" disabled={updateProfile.isPending}>
          {updateProfile.isPending ? t`Updating...` : t`Update Profile`}
        </Button>
      </form>
    </Card>
  );
}
