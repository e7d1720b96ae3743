import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http, type RequestHandler } from 'msw';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { BARTER_ERROR_CODES, BARTER_MESSAGES } from '#common/schemas/barters.ts';
import { AddItemProvider } from '#web/components/feature-slots.tsx';
import { renderWithProviders } from '#web/testing/render.tsx';
import { errorJson, pagedJson, recordRequests, server } from '#web/testing/server.ts';
import { barter, barterItem, ownItem } from '../testing/fixtures';
import { ProposalDialog, type ProposalTarget } from './proposal-dialog';

const drill = { id: 21, title: 'Cordless drill', category: 'tools', isService: false, thumbnailUrl: null };
const proposeDrill: ProposalTarget = {
  mode: 'propose',
  item: drill,
  owner: { id: 'ann', displayName: 'Ann R.' },
};

function Harness({ target }: { target: ProposalTarget }) {
  const [open, setOpen] = useState(true);
  return (
    <AddItemProvider>
      <ProposalDialog open={open} onOpenChange={setOpen} target={target} />
    </AddItemProvider>
  );
}

function stub(...handlers: RequestHandler[]) {
  server.use(
    // The test's own answers first: msw takes the first handler that matches.
    ...handlers,
    http.get('/api/items/my', () =>
      pagedJson([
        ownItem(1, { title: 'Road bike' }),
        ownItem(2, { title: 'Hidden lamp', isActive: false }),
        ownItem(3, { title: 'Reserved tent', isReserved: true }),
        ownItem(4, { title: 'Guitar lessons', isService: true }),
      ]),
    ),
    http.get('/api/members/ann/items', () =>
      pagedJson([
        drill,
        { id: 22, title: 'Ladder', category: 'tools', isService: false, thumbnailUrl: null },
      ]),
    ),
  );
  return recordRequests();
}

const group = (name: string) => screen.getByRole('group', { name });
const checkbox = (groupName: string, name: string | RegExp) =>
  within(group(groupName)).getByRole('checkbox', { name });

describe('ProposalDialog (propose)', () => {
  it('offers your active, unreserved items, asks for the clicked item, and sends what was chosen', async () => {
    const api = stub(
      http.post('/api/barter-requests', () =>
        HttpResponse.json(barter({ id: 99, role: 'sender' }), { status: 201 }),
      ),
    );
    const { location } = renderWithProviders(<Harness target={proposeDrill} />);
    const dialog = await screen.findByRole('dialog', { name: 'Propose a Barter' });
    await screen.findByRole('checkbox', { name: /Road bike/ });

    // Hidden and reserved items cannot be offered: they are not there to choose.
    expect(within(group('You offer')).getAllByRole('checkbox')).toHaveLength(2);
    expect(checkbox('You offer', 'Road bike')).not.toBeChecked();
    expect(checkbox('You offer', 'Guitar lessons Service')).not.toBeChecked();
    expect(screen.queryByRole('checkbox', { name: /Hidden lamp|Reserved tent/ })).not.toBeInTheDocument();
    expect(checkbox('You ask for', 'Cordless drill')).toBeChecked();
    await waitFor(() => expect(checkbox('You ask for', 'Ladder')).not.toBeChecked());

    // Nothing of mine chosen, then nothing of theirs either: each side says what it needs.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send Proposal' }));
    expect(await within(group('You offer')).findByText(BARTER_MESSAGES.chooseOffered)).toBeInTheDocument();
    await userEvent.click(checkbox('You ask for', 'Cordless drill'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send Proposal' }));
    expect(
      await within(group('You ask for')).findByText(BARTER_MESSAGES.chooseRequested),
    ).toBeInTheDocument();
    expect(api.to('POST /api/barter-requests')).toHaveLength(0);

    await userEvent.click(checkbox('You offer', 'Road bike'));
    await userEvent.click(checkbox('You offer', /Guitar lessons/));
    await userEvent.click(checkbox('You ask for', 'Ladder'));
    await userEvent.type(within(dialog).getByLabelText('Message (optional)'), '  Swap this weekend? ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send Proposal' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await api.bodiesOf('POST /api/barter-requests')).toEqual([
      { offeredItemIds: [1, 4], requestedItemIds: [22], message: 'Swap this weekend?' },
    ]);
    expect(await screen.findByText('Proposal Sent')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View the barter' })).toHaveAttribute('href', '/barters/99');
    expect(location.history).toEqual(['/']);
  });

  it('leaves out an empty message', async () => {
    const api = stub(
      http.post('/api/barter-requests', () => HttpResponse.json(barter({ id: 5 }), { status: 201 })),
    );
    renderWithProviders(<Harness target={proposeDrill} />);
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Road bike' }));
    await userEvent.click(screen.getByRole('button', { name: 'Send Proposal' }));
    await waitFor(() => expect(api.to('POST /api/barter-requests')).toHaveLength(1));
    expect((await api.bodiesOf('POST /api/barter-requests'))[0]).toEqual({
      offeredItemIds: [1],
      requestedItemIds: [21],
    });
  });

  it('shows the server’s sentence when it refuses, and stays open', async () => {
    stub(
      http.post('/api/barter-requests', () =>
        errorJson(409, 'You proposed this barter already.', BARTER_ERROR_CODES.duplicate),
      ),
    );
    renderWithProviders(<Harness target={proposeDrill} />);
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Road bike' }));
    await userEvent.click(screen.getByRole('button', { name: 'Send Proposal' }));
    expect(await screen.findByText('You proposed this barter already.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Propose a Barter' })).toBeInTheDocument();
  });

  it('says "Content Not Allowed" when the message is refused', async () => {
    stub(
      http.post('/api/barter-requests', () =>
        errorJson(400, 'This message is not appropriate for Barterhood.', 'CONTENT_NOT_ALLOWED'),
      ),
    );
    renderWithProviders(<Harness target={proposeDrill} />);
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Road bike' }));
    await userEvent.click(screen.getByRole('button', { name: 'Send Proposal' }));
    expect(await screen.findByText('Content Not Allowed')).toBeInTheDocument();
  });

  it('still offers the clicked item when their other items cannot be read', async () => {
    const api = stub(
      http.get('/api/members/ann/items', () => errorJson(404, 'Not found')),
      http.post('/api/barter-requests', () => HttpResponse.json(barter({ id: 5 }), { status: 201 })),
    );
    renderWithProviders(<Harness target={proposeDrill} />);
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Road bike' }));
    await waitFor(() => expect(api.to('GET /api/members/ann/items')).toHaveLength(1));
    expect(within(group('You ask for')).getAllByRole('checkbox')).toHaveLength(1);
    await userEvent.click(screen.getByRole('button', { name: 'Send Proposal' }));
    await waitFor(() => expect(api.to('POST /api/barter-requests')).toHaveLength(1));
  });

  it('without anything to offer, says so and opens Add Item', async () => {
    stub(http.get('/api/items/my', () => pagedJson([])));
    renderWithProviders(<Harness target={proposeDrill} />);
    expect(await screen.findByText(/You have nothing to offer yet/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send Proposal' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add an Item' }));
    expect(await screen.findByRole('dialog', { name: 'Add New Item' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Propose a Barter' })).not.toBeInTheDocument();
  });

  it('explains when every item is hidden or reserved', async () => {
    stub(
      http.get('/api/items/my', () =>
        pagedJson([ownItem(2, { isActive: false }), ownItem(3, { isReserved: true })]),
      ),
    );
    renderWithProviders(<Harness target={proposeDrill} />);
    expect(await screen.findByText(/hidden or held by an accepted barter/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add an Item' })).toBeInTheDocument();
  });
});

describe('ProposalDialog (counter)', () => {
  it('starts from the proposal with the sides swapped and sends the counter', async () => {
    // Ann offered her bike (11) for my drill (21); I counter with my drill and ladder for her bike.
    const received = barter({
      id: 7,
      role: 'recipient',
      offeredItems: [barterItem(11, { title: 'Mountain bike' })],
      requestedItems: [barterItem(21, { title: 'Cordless drill' })],
    });
    server.use(
      http.get('/api/items/my', () =>
        pagedJson([ownItem(21, { title: 'Cordless drill' }), ownItem(23, { title: 'Ladder' })]),
      ),
      http.get('/api/members/ann/items', () =>
        pagedJson([
          { id: 11, title: 'Mountain bike', category: 'bikes', isService: false, thumbnailUrl: null },
          { id: 12, title: 'Kayak', category: 'boats', isService: false, thumbnailUrl: null },
        ]),
      ),
      http.post('/api/barter-requests/7/counter', () =>
        HttpResponse.json(barter({ id: 8, role: 'sender', counterOfId: 7 }), { status: 201 }),
      ),
    );
    const api = recordRequests();
    const { location } = renderWithProviders(<Harness target={{ mode: 'counter', barter: received }} />);
    expect(await screen.findByRole('dialog', { name: 'Counter Offer' })).toBeInTheDocument();
    await screen.findByRole('checkbox', { name: 'Ladder' });
    expect(checkbox('You offer', 'Cordless drill')).toBeChecked();
    expect(checkbox('You offer', 'Ladder')).not.toBeChecked();
    expect(checkbox('You ask for', 'Mountain bike')).toBeChecked();
    await waitFor(() => expect(checkbox('You ask for', 'Kayak')).not.toBeChecked());

    await userEvent.click(checkbox('You offer', 'Ladder'));
    await userEvent.click(screen.getByRole('button', { name: 'Send Counter Offer' }));
    await waitFor(() => expect(location.history.at(-1)).toBe('/barters/8'));
    expect(await api.bodiesOf('POST /api/barter-requests/7/counter')).toEqual([
      { offeredItemIds: [21, 23], requestedItemIds: [11] },
    ]);
    expect(await screen.findByText('Counter Offer Sent')).toBeInTheDocument();
  });
});

describe('ProposalDialog ticks the item the owner wants (issue 28)', () => {
  it('ticks it once your items are loaded', async () => {
    stub();
    renderWithProviders(<Harness target={{ ...proposeDrill, offerItemId: 4 }} />);
    await waitFor(() => expect(checkbox('You offer', /Guitar lessons/)).toBeChecked());
    expect(checkbox('You offer', 'Road bike')).not.toBeChecked();
  });

  it('ticks nothing when that item cannot be offered (an accepted barter holds it)', async () => {
    stub();
    renderWithProviders(<Harness target={{ ...proposeDrill, offerItemId: 3 }} />);
    await screen.findByRole('checkbox', { name: /Road bike/ });
    expect(
      within(group('You offer'))
        .getAllByRole('checkbox')
        .filter((box) => (box as HTMLInputElement).checked),
    ).toEqual([]);
  });
});
