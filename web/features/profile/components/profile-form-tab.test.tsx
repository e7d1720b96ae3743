import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import type { CurrentUser } from '#common/schemas/auth.ts';
import type { Place } from '#common/schemas/places.ts';
import { PROFILE_MESSAGES } from '#common/schemas/profile.ts';
import { activateLocale } from '#web/i18n/i18n.ts';
import { useUser } from '#web/lib/get-user.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { errorJson, recordRequests, server } from '#web/testing/server.ts';
import { ProfileFormTab } from './profile-form-tab';

const USER: CurrentUser = {
  id: 'u1',
  firstName: 'Rosa',
  lastName: 'Parks',
  email: 'rosa@example.com',
  location: null,
  latitude: null,
  longitude: null,
  maxTravelDistance: 25,
  profileImageUrl: null,
  isDemo: false,
  emailVerified: true,
  hasPassword: true,
  role: 'member',
  suspendedUntil: null,
};

const PORTLAND: Place = {
  id: 'geonames:5746545',
  displayName: 'Portland, Oregon, United States',
  latitude: 45.52345,
  longitude: -122.67621,
};

/** Stands in for the header: it shows the current user's location as the app's cache has it. */
function HeaderLocation() {
  const { user } = useUser();
  return <p>Header: {user?.location || 'Set location'}</p>;
}

interface Api {
  /** PUT /api/user/profile answers only once this settles. */
  hold?: Promise<void>;
  /** PUT /api/user/profile fails with a 500. */
  fail?: boolean;
}

/**
 * The calls this form makes, backed by one stored user that the PUT updates; anything else fails
 * the test. Every request is recorded.
 */
function answerApi({ hold, fail }: Api = {}) {
  let current: CurrentUser = { ...USER };
  server.use(
    http.get('/api/auth/user', () => HttpResponse.json(current)),
    http.get('/api/places/search', () => HttpResponse.json([PORTLAND])),
    http.put('/api/user/profile', async ({ request }) => {
      await hold;
      if (fail) return errorJson(500, 'Internal error', 'INTERNAL');
      current = { ...current, ...((await request.json()) as Partial<CurrentUser>) };
      return HttpResponse.json(current);
    }),
  );
  return recordRequests();
}

/** The bodies of the profile updates sent, in order. */
const profileUpdates = (api: ReturnType<typeof answerApi>) => api.bodiesOf('PUT /api/user/profile');
const profileCalls = (api: ReturnType<typeof answerApi>) =>
  api.sent.filter((r) => r.path === '/api/user/profile');

function renderForm(user: CurrentUser = USER) {
  renderWithProviders(
    <>
      <HeaderLocation />
      <ProfileFormTab user={user} />
    </>,
  );
  return {
    location: screen.getByRole('combobox', { name: 'Location' }),
    distance: screen.getByLabelText('Max Travel Distance (miles)'),
    submit: () => userEvent.click(screen.getByRole('button', { name: 'Update Profile' })),
  };
}

afterEach(async () => {
  await activateLocale('en');
});

describe('ProfileFormTab', () => {
  it.each([0, 101])('refuses a travel distance of %i with the message under the field', async (miles) => {
    const api = answerApi();
    const form = renderForm({ ...USER, location: 'Portland, Oregon, United States' });
    expect(form.distance).toHaveValue(25);
    await userEvent.clear(form.distance);
    await userEvent.type(form.distance, String(miles));
    await form.submit();
    expect(await screen.findByText(PROFILE_MESSAGES.travelDistanceRange)).toBeVisible();
    expect(form.distance).toHaveAttribute('aria-invalid', 'true');
    expect(form.distance).toHaveAccessibleDescription(PROFILE_MESSAGES.travelDistanceRange);
    expect(profileCalls(api)).toHaveLength(0);
  });

  it('requires a location', async () => {
    const api = answerApi();
    const form = renderForm();
    await form.submit();
    expect(await screen.findByText(PROFILE_MESSAGES.locationRequired)).toBeVisible();
    expect(form.location).toHaveAttribute('aria-invalid', 'true');
    expect(profileCalls(api)).toHaveLength(0);
  });

  it("saves the chosen place and distance: 'Updating...', the Success toast, and the current user refetched", async () => {
    let answer: () => void = () => {};
    const api = answerApi({ hold: new Promise((resolve) => (answer = resolve)) });
    const form = renderForm();
    expect(await screen.findByText('Header: Set location')).toBeInTheDocument();

    await userEvent.type(form.location, 'Portl');
    await userEvent.click(await screen.findByRole('option', { name: 'Portland, Oregon, United States' }));
    await userEvent.clear(form.distance);
    await userEvent.type(form.distance, '30');
    await form.submit();

    expect(await screen.findByRole('button', { name: 'Updating...' })).toBeDisabled();
    expect(profileCalls(api).map((request) => request.method)).toEqual(['PUT']);
    expect(await profileUpdates(api)).toEqual([
      {
        location: 'Portland, Oregon, United States',
        latitude: 45.52345,
        longitude: -122.67621,
        maxTravelDistance: 30,
      },
    ]);

    answer();
    expect(await screen.findByText('Success')).toBeInTheDocument();
    expect(screen.getByText('Your profile has been updated.')).toBeInTheDocument();
    expect(await screen.findByText('Header: Portland, Oregon, United States')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Update Profile' })).toBeEnabled();
    expect(form.location).toHaveValue('Portland, Oregon, United States');
    expect(form.distance).toHaveValue(30);
  });

  it('typing over a chosen place sends the text without its old coordinates', async () => {
    const api = answerApi();
    const form = renderForm({
      ...USER,
      location: 'Portland, Oregon, United States',
      latitude: 45.5,
      longitude: -122.6,
    });
    await userEvent.clear(form.location);
    await userEvent.type(form.location, 'Springfield');
    await userEvent.keyboard('{Escape}');
    await form.submit();
    await waitFor(() => expect(profileCalls(api)).toHaveLength(1));
    expect(await profileUpdates(api)).toEqual([
      { location: 'Springfield', latitude: null, longitude: null, maxTravelDistance: 25 },
    ]);
  });

  it('a failed update says so in an Error toast', async () => {
    answerApi({ fail: true });
    const form = renderForm({ ...USER, location: 'Portland, Oregon, United States' });
    await form.submit();
    expect(await screen.findByText('Error')).toBeInTheDocument();
    expect(screen.getByText('Failed to update profile. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Update Profile' })).toBeEnabled();
  });

  it('in Spanish the distance is chosen in km, saved in whole miles, and shows the same km again', async () => {
    await activateLocale('es');
    const api = answerApi();
    renderWithProviders(
      <ProfileFormTab user={{ ...USER, location: 'Buckman, Portland, Oregon, United States' }} />,
    );
    expect(screen.queryByText(/millas|miles/)).toBeNull();
    const distance = screen.getByRole('combobox', { name: 'Distancia máxima de viaje (km)' });
    // 25 miles, as stored.
    expect(distance).toHaveDisplayValue('40 km');
    // Every choice is a whole number of miles, so none drifts after saving.
    const options = [...(distance as HTMLSelectElement).options];
    expect(options).toHaveLength(100);
    expect(options.map((option) => option.text).slice(0, 7)).toEqual([
      '2 km',
      '3 km',
      '5 km',
      '6 km',
      '8 km',
      '10 km',
      '11 km',
    ]);
    expect(screen.getByRole('combobox', { name: 'Ubicación' })).toHaveValue(
      'Buckman, Portland, Oregon, Estados Unidos',
    );

    await userEvent.selectOptions(distance, '10 km');
    await userEvent.click(screen.getByRole('button', { name: 'Actualizar perfil' }));
    await waitFor(() => expect(profileCalls(api)).toHaveLength(1));
    const [update] = await profileUpdates(api);
    expect(update).toMatchObject({
      location: 'Buckman, Portland, Oregon, United States',
      maxTravelDistance: 6,
    });
    expect(await screen.findByText('Tu perfil se actualizó.')).toBeInTheDocument();
    expect(distance).toHaveDisplayValue('10 km');
  });
});
