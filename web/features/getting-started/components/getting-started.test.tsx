import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '../../../../common/schemas/auth';
import type { GettingStarted as Steps } from '../../../../common/schemas/getting-started';
import { stubApi } from '../../../testing/api-stub';
import { jsonResponse, renderWithProviders } from '../../../testing/render';
import { AddItemProvider } from '../../listings/components/add-item-context';
import { GettingStarted } from './getting-started';

const user: CurrentUser = {
  id: 'u1',
  firstName: 'Nia',
  lastName: 'Lee',
  email: 'nia@example.com',
  location: null,
  latitude: null,
  longitude: null,
  maxTravelDistance: 25,
  profileImageUrl: null,
  isDemo: false,
  emailVerified: false,
  hasPassword: true,
  role: 'member',
  suspendedUntil: null,
};

afterEach(() => vi.unstubAllGlobals());

const nothingDone: Steps = { area: false, want: false, item: false, completed: false };

function render(steps: Steps, extra: Parameters<typeof stubApi>[0] = {}) {
  let state = steps;
  const api = stubApi({
    'GET /api/account/getting-started': () => jsonResponse(state),
    'PUT /api/account/getting-started': (call) => {
      state = { ...state, ...(call.body as { completed: boolean }) };
      return jsonResponse(state);
    },
    ...extra,
  });
  renderWithProviders(
    <AddItemProvider>
      <GettingStarted user={user} />
    </AddItemProvider>,
  );
  return { api, advance: (next: Partial<Steps>) => Object.assign(state, next) };
}

const guide = () => screen.findByRole('region', { name: 'Get started in three steps' });

describe('GettingStarted', () => {
  it('starts at the area: a place chosen from the suggestions is saved with the travel distance', async () => {
    const { api } = render(nothingDone, {
      'GET /api/places/search': () =>
        jsonResponse([
          { id: 'zip:97214', displayName: '97214, Portland, Oregon', latitude: 45.51, longitude: -122.64 },
        ]),
      'PUT /api/user/profile': (call) => jsonResponse({ ...user, ...(call.body as object) }),
      'GET /api/auth/user': () => jsonResponse(user),
    });
    const region = await guide();
    expect(within(region).getByText('0 of 3 done')).toBeInTheDocument();
    const steps = within(region).getAllByRole('listitem');
    expect(steps.map((step) => step.getAttribute('aria-current'))).toEqual(['step', null, null]);
    // Saving before choosing a suggestion says what to do.
    await userEvent.click(within(region).getByRole('button', { name: 'Save Area' }));
    expect(within(region).getByText('Choose your area from the suggestions.')).toBeInTheDocument();
    await userEvent.type(within(region).getByLabelText('Your area'), '97214');
    await userEvent.click(await screen.findByRole('option', { name: /97214, Portland, Oregon/ }));
    await userEvent.click(within(region).getByRole('button', { name: 'Save Area' }));
    await vi.waitFor(() =>
      expect(api.callsTo('PUT /api/user/profile').map((call) => call.body)).toEqual([
        { location: '97214, Portland, Oregon', latitude: 45.51, longitude: -122.64, maxTravelDistance: 25 },
      ]),
    );
    // The guide reads its steps again after the save.
    await vi.waitFor(() => expect(api.callsTo('GET /api/account/getting-started').length).toBeGreaterThan(1));
  });

  it('moves on to the want once the area is set', async () => {
    render({ ...nothingDone, area: true });
    const region = await guide();
    expect(within(region).getByText('1 of 3 done')).toBeInTheDocument();
    await userEvent.click(within(region).getByRole('button', { name: 'Add a Want' }));
    expect(await screen.findByRole('dialog', { name: 'Add to Want List' })).toBeInTheDocument();
  });

  it('opens the Add New Item dialog at the third step', async () => {
    render({ area: true, want: true, item: false, completed: false });
    const region = await guide();
    expect(within(region).getByText('2 of 3 done')).toBeInTheDocument();
    expect(within(region).queryByRole('button', { name: 'Add a Want' })).not.toBeInTheDocument();
    await userEvent.click(within(region).getByRole('button', { name: 'Add an Item' }));
    expect(await screen.findByRole('dialog', { name: 'Add New Item' })).toBeInTheDocument();
  });

  it('Skip for Now puts it away for the member', async () => {
    const { api } = render(nothingDone);
    const region = await guide();
    await userEvent.click(within(region).getByRole('button', { name: 'Skip for Now' }));
    await vi.waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Get started in three steps' })).not.toBeInTheDocument(),
    );
    expect(api.callsTo('PUT /api/account/getting-started').map((call) => call.body)).toEqual([
      { completed: true },
    ]);
  });

  it('all done: says so, and Done puts it away', async () => {
    const { api } = render({ area: true, want: true, item: true, completed: false });
    const region = await screen.findByRole('region', { name: 'You are all set' });
    expect(within(region).getByText('3 of 3 done')).toBeInTheDocument();
    expect(within(region).queryByRole('button', { name: 'Skip for Now' })).not.toBeInTheDocument();
    await userEvent.click(within(region).getByRole('button', { name: 'Done' }));
    await vi.waitFor(() => expect(api.callsTo('PUT /api/account/getting-started')).toHaveLength(1));
  });

  it('shows nothing once put away', async () => {
    const { api } = render({ ...nothingDone, completed: true });
    await vi.waitFor(() => expect(api.callsTo('GET /api/account/getting-started')).toHaveLength(1));
    expect(screen.queryByRole('region', { name: /Get started|all set/ })).not.toBeInTheDocument();
  });
});
