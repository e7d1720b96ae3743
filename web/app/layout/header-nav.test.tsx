import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '#common/schemas/auth.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { recordRequests, server } from '#web/testing/server.ts';
import { BottomNav } from './bottom-nav';
import { MemberHeader } from './member-header';

const user: CurrentUser = {
  id: 'u1',
  firstName: 'Rosa',
  lastName: 'Parks',
  email: 'rosa@example.com',
  location: 'Springfield',
  latitude: null,
  longitude: null,
  maxTravelDistance: 10,
  profileImageUrl: null,
  isDemo: false,
  emailVerified: true,
  hasPassword: true,
  role: 'member',
  suspendedUntil: null,
};

/** The guided start as the account menu reads it (put away with steps left brings "Getting Started"). */
let guide = { area: true, want: true, item: true, completed: true };

/** The signed-in member and the two unread counts; anything else fails the test. */
function stubCounts(notifications: number, messages: number) {
  server.use(
    http.get('/api/auth/user', () => HttpResponse.json(user)),
    http.get('/api/account/getting-started', () => HttpResponse.json(guide)),
    http.put('/api/account/getting-started', async ({ request }) => {
      guide = { ...guide, ...((await request.json()) as Partial<typeof guide>) };
      return HttpResponse.json(guide);
    }),
    http.get('/api/notifications/unread-count', () => HttpResponse.json(notifications)),
    http.get('/api/messages/unread-count', () => HttpResponse.json(messages)),
  );
}

describe('MemberHeader', () => {
  it('has a bell button and a Messages link to the inbox, each saying its unread count', async () => {
    stubCounts(3, 2);
    const { location } = renderWithProviders(<MemberHeader />);
    const header = await screen.findByRole('banner');
    const bell = await within(header).findByRole('button', { name: 'Notifications, 3 unread' });
    expect(bell).toHaveTextContent('3');
    const messages = await within(header).findByRole('link', { name: 'Messages, 2 unread' });
    expect(messages).toHaveAttribute('href', '/messages');
    expect(messages).toHaveTextContent('2');
    expect(messages).not.toHaveAttribute('aria-current');
    await userEvent.click(messages);
    expect(location.history?.at(-1)).toBe('/messages');
    expect(messages).toHaveAttribute('aria-current', 'page');
  });

  it('shows no badge and a plain name at 0, and 99+ above 99', async () => {
    stubCounts(0, 150);
    renderWithProviders(<MemberHeader />);
    const bell = await screen.findByRole('button', { name: 'Notifications' });
    expect(bell).toHaveTextContent('');
    expect(await screen.findByRole('link', { name: 'Messages, 150 unread' })).toHaveTextContent('99+');
  });
});

describe('BottomNav', () => {
  it('has an enabled Messages tab leading to the inbox, with the unread badge', async () => {
    stubCounts(0, 4);
    const { location } = renderWithProviders(<BottomNav />);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const tab = await within(nav).findByRole('link', { name: 'Messages, 4 unread' });
    expect(tab).toHaveAttribute('href', '/messages');
    expect(tab).toHaveTextContent('4Messages');
    expect(tab).not.toHaveAttribute('aria-current');
    await userEvent.click(tab);
    expect(location.history?.at(-1)).toBe('/messages');
    expect(tab).toHaveAttribute('aria-current', 'page');
  });

  it.each(['/messages', '/barters', '/barters/12'])('highlights Messages on %s', async (path) => {
    stubCounts(0, 0);
    renderWithProviders(<BottomNav />, { path });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Messages' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Home' })).not.toHaveAttribute('aria-current');
  });

  it('does not highlight Messages elsewhere', async () => {
    stubCounts(0, 0);
    renderWithProviders(<BottomNav />, { path: '/bartersmith' });
    expect(screen.getByRole('link', { name: 'Messages' })).not.toHaveAttribute('aria-current');
  });

  it('the account menu brings back a guided start that was skipped with steps left', async () => {
    guide = { area: true, want: false, item: false, completed: true };
    stubCounts(0, 0);
    const sent = recordRequests();
    renderWithProviders(<MemberHeader />);
    await userEvent.click(await screen.findByRole('button', { name: 'Account menu' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Getting Started' }));
    await vi.waitFor(() => expect(guide.completed).toBe(false));
    expect(await sent.bodiesOf('PUT /api/account/getting-started')).toEqual([{ completed: false }]);
  });

  it('the account menu has no Getting Started once every step is done', async () => {
    guide = { area: true, want: true, item: true, completed: true };
    stubCounts(0, 0);
    renderWithProviders(<MemberHeader />);
    await userEvent.click(await screen.findByRole('button', { name: 'Account menu' }));
    expect(await screen.findByRole('menuitem', { name: 'Profile' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Getting Started' })).not.toBeInTheDocument();
  });
});
