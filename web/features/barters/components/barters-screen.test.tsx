import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { OWN_LIST_PAGE_SIZE } from '#common/schemas/listings.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { pagedJson, recordRequests, server } from '#web/testing/server.ts';
import { barter, barterItem } from '../testing/fixtures';
import { EMPTY_BOX_TEXT } from './barter-list';
import { BartersScreen } from './barters-screen';

describe('BartersScreen', () => {
  it('lists incoming proposals: who, what each side gives, state, unread messages, and opens each', async () => {
    server.use(
      http.get('/api/barter-requests', ({ request }) =>
        new URL(request.url).searchParams.get('box') === 'incoming'
          ? pagedJson([
              barter({
                id: 7,
                role: 'recipient',
                unreadMessages: 3,
                offeredItems: [
                  barterItem(11, { title: 'Mountain bike' }),
                  barterItem(12, { title: 'Helmet' }),
                ],
                requestedItems: [barterItem(21, { title: 'Cordless drill' })],
              }),
              barter({
                id: 6,
                otherMember: { id: null, displayName: 'Former member', profileImageUrl: null },
              }),
            ])
          : pagedJson([]),
      ),
    );
    const { location } = renderWithProviders(<BartersScreen />, { path: '/barters' });

    expect(screen.getByRole('tab', { name: 'Incoming' })).toHaveAttribute('aria-selected', 'true');
    const rows = await screen.findAllByRole('listitem');
    expect(rows).toHaveLength(2);
    const [first, second] = rows as [HTMLElement, HTMLElement];
    expect(within(first).getByRole('link', { name: 'Ann R.' })).toHaveAttribute('href', '/members/ann');
    // The recipient gives what was asked of them and gets what was offered.
    const open = within(first).getByRole('link', { name: /You give: Cordless drill/ });
    expect(open).toHaveAccessibleName('You give: Cordless drill You get: Mountain bike, Helmet');
    expect(open).toHaveAttribute('href', '/barters/7');
    expect(within(first).getByText('Pending')).toBeInTheDocument();
    expect(within(first).getByText('3 unread messages')).toBeInTheDocument();
    // A deleted account has no page to link to.
    expect(within(second).getByText('Former member')).toBeInTheDocument();
    expect(within(second).queryByRole('link', { name: 'Former member' })).not.toBeInTheDocument();
    expect(within(second).queryByText(/unread/)).not.toBeInTheDocument();

    await userEvent.click(open);
    expect(location.history.at(-1)).toBe('/barters/7');
  });

  it('shows each tab’s own list and empty state, and keeps the tab in the address', async () => {
    server.use(http.get('/api/barter-requests', () => pagedJson([])));
    const api = recordRequests();
    const { location } = renderWithProviders(<BartersScreen />, { path: '/barters' });
    expect(await screen.findByText(EMPTY_BOX_TEXT.incoming)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('tab', { name: 'Past' }));
    expect(await screen.findByText(EMPTY_BOX_TEXT.past)).toBeInTheDocument();
    expect(location.history.at(-1)).toBe('/barters?box=past');
    await userEvent.click(screen.getByRole('tab', { name: 'Active' }));
    expect(await screen.findByText(EMPTY_BOX_TEXT.active)).toBeInTheDocument();

    expect(api.sent.map((call) => call.query.get('box'))).toEqual(['incoming', 'past', 'active']);
    expect(api.sent.every((call) => call.query.get('offset') === '0')).toBe(true);
  });

  it('opens the tab the address names', async () => {
    server.use(http.get('/api/barter-requests', () => pagedJson([])));
    renderWithProviders(<BartersScreen />, { path: '/barters?box=outgoing' });
    expect(screen.getByRole('tab', { name: 'Outgoing' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByText(EMPTY_BOX_TEXT.outgoing)).toBeInTheDocument();
  });

  it('pages a long list with Load More Barters', async () => {
    const total = OWN_LIST_PAGE_SIZE + 3;
    const all = Array.from({ length: total }, (_, index) => barter({ id: total - index }));
    server.use(
      http.get('/api/barter-requests', ({ request }) => {
        const query = new URL(request.url).searchParams;
        const offset = Number(query.get('offset'));
        return pagedJson(all.slice(offset, offset + Number(query.get('limit'))), total);
      }),
    );
    const api = recordRequests();
    renderWithProviders(<BartersScreen />, { path: '/barters' });
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(OWN_LIST_PAGE_SIZE));
    await userEvent.click(screen.getByRole('button', { name: 'Load More Barters' }));
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(total));
    expect(screen.queryByRole('button', { name: 'Load More Barters' })).not.toBeInTheDocument();
    expect(api.sent.map((call) => call.url)).toEqual([
      `/api/barter-requests?box=incoming&limit=${OWN_LIST_PAGE_SIZE}&offset=0`,
      `/api/barter-requests?box=incoming&limit=${OWN_LIST_PAGE_SIZE}&offset=${OWN_LIST_PAGE_SIZE}`,
    ]);
  });
});
