import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import type { SwapDay, SwapDayOffer } from '#common/schemas/swap-days.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { errorJson, recordRequests, server } from '#web/testing/server.ts';
import { RankingEditor } from './ranking-editor';
import { SwapDayDetail } from './swap-day-detail';

const ref = (id: string, displayName: string) => ({ id, displayName, profileImageUrl: null });
const offer = (
  id: number,
  title: string,
  owner = ref('u2', 'Ben B.'),
  extra: Partial<SwapDayOffer> = {},
) => ({
  item: { id, title, category: 'tools', isService: false, thumbnailUrl: null, available: true },
  owner,
  mine: false,
  wantedItemIds: [],
  ...extra,
});

const mine = offer(1, 'Camping stove', ref('u1', 'Ann A.'), { mine: true });
const candidates = [
  offer(2, 'Cordless drill'),
  offer(3, 'Tennis racket'),
  offer(4, 'Guitar', ref('u3', 'Dee D.')),
];

const ranking = () => screen.getByRole('list', { name: 'What you would accept for your Camping stove' });
const rankedTitles = () =>
  within(ranking())
    .getAllByRole('listitem')
    .map((item) => item.textContent?.replace(/^\d+\.Rank \d+: /, '').replace(/ from .*/, ''));

describe('RankingEditor', () => {
  it('ranks with the keyboard alone: add, move up and down, remove, then save the whole order', async () => {
    const onSave = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(
      <RankingEditor offer={mine} candidates={candidates} editable saving={false} onSave={onSave} />,
    );
    expect(screen.getByText(/Nothing ranked yet/)).toBeInTheDocument();
    const save = screen.getByRole('button', { name: 'Save ranking' });
    expect(save).toBeDisabled();

    const choose = screen.getByLabelText('Add an item you would accept');
    for (const title of [
      'Cordless drill, from Ben B.',
      'Tennis racket, from Ben B.',
      'Guitar, from Dee D.',
    ]) {
      await user.selectOptions(choose, title);
      await user.click(screen.getByRole('button', { name: 'Add' }));
    }
    expect(rankedTitles()).toEqual(['Cordless drill', 'Tennis racket', 'Guitar']);
    expect(screen.getByText('Guitar added at rank 3.')).toBeInTheDocument();
    // Everything offered is ranked: nothing left to add.
    expect(choose).toBeDisabled();

    // The guitar goes to the top by keyboard; the focus follows it and stays on a usable button.
    screen.getByRole('button', { name: 'Move Guitar up' }).focus();
    await user.keyboard('{Enter}');
    expect(rankedTitles()).toEqual(['Cordless drill', 'Guitar', 'Tennis racket']);
    expect(screen.getByRole('button', { name: 'Move Guitar up' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(rankedTitles()).toEqual(['Guitar', 'Cordless drill', 'Tennis racket']);
    expect(screen.getByText('Guitar moved to rank 1 of 3.')).toBeInTheDocument();
    // At the top, Move up is disabled: the focus moved to Move down.
    expect(screen.getByRole('button', { name: 'Move Guitar up' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Move Guitar down' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Move Cordless drill down' }));
    await user.click(screen.getByRole('button', { name: 'Remove Guitar' }));
    expect(rankedTitles()).toEqual(['Tennis racket', 'Cordless drill']);
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();

    await user.click(save);
    expect(onSave).toHaveBeenCalledWith([3, 2]);
  });

  it('is read-only once want lists close, and marks items no longer available', () => {
    renderWithProviders(
      <RankingEditor
        offer={{ ...mine, wantedItemIds: [3, 2] }}
        candidates={[
          offer(2, 'Cordless drill'),
          offer(3, 'Tennis racket', undefined, {
            item: { ...offer(3, 'x').item, title: 'Tennis racket', available: false },
          }),
        ]}
        editable={false}
        saving={false}
        onSave={vi.fn()}
      />,
    );
    expect(rankedTitles()).toEqual(['Tennis racket', 'Cordless drill']);
    expect(screen.getByText('No longer available')).toBeInTheDocument();
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByLabelText('Add an item you would accept')).toBeNull();
  });
});

const swapDay = (overrides: Partial<SwapDay> = {}): SwapDay => ({
  id: 9,
  name: 'Maple Street swap day',
  place: 'Community hall',
  startsAt: '2030-05-04T17:00:00.000Z',
  deadline: '2030-05-03T17:00:00.000Z',
  status: 'open',
  organiser: ref('u2', 'Ben B.'),
  isOrganiser: false,
  joined: true,
  memberCount: 3,
  distanceMiles: 0.4,
  members: [ref('u2', 'Ben B.'), ref('u1', 'Ann A.'), ref('u3', 'Dee D.')],
  offers: [mine, ...candidates],
  offerableItems: [],
  allowedActions: ['leave', 'offer'],
  matchStage: null,
  matchFailure: null,
  result: null,
  ...overrides,
});

describe('SwapDayDetail', () => {
  it('saves a ranking as the whole ordered list, and shows what the server answers', async () => {
    const user = userEvent.setup();
    server.use(
      http.get('/api/swap-days/9', () => HttpResponse.json(swapDay())),
      http.put('/api/swap-days/9/offers/1/wants', async ({ request }) => {
        const call = { body: (await request.json()) as unknown };
        return HttpResponse.json(
          swapDay({
            offers: [
              { ...mine, wantedItemIds: (call.body as { wantedItemIds: number[] }).wantedItemIds },
              ...candidates,
            ],
          }),
        );
      }),
    );
    const api = recordRequests();
    renderWithProviders(<SwapDayDetail id={9} />);
    await screen.findByRole('heading', { name: 'Maple Street swap day' });
    await user.selectOptions(screen.getByLabelText('Add an item you would accept'), 'Guitar, from Dee D.');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await user.selectOptions(
      screen.getByLabelText('Add an item you would accept'),
      'Cordless drill, from Ben B.',
    );
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await user.click(screen.getByRole('button', { name: 'Save ranking' }));
    await waitFor(() => expect(api.to('PUT /api/swap-days/9/offers/1/wants')).toHaveLength(1));
    expect((await api.bodiesOf('PUT /api/swap-days/9/offers/1/wants'))[0]).toEqual({ wantedItemIds: [4, 2] });
    expect(await screen.findByText('Ranking Saved')).toBeInTheDocument();
    expect(rankedTitles()).toEqual(['Guitar', 'Cordless drill']);
    expect(screen.queryByText('Unsaved changes')).toBeNull();
  });

  it('the organizer closes want lists after confirming; a refusal shows the server’s sentence', async () => {
    const user = userEvent.setup();
    server.use(
      http.get('/api/swap-days/9', () =>
        HttpResponse.json(swapDay({ isOrganiser: true, allowedActions: ['offer', 'close', 'cancel'] })),
      ),
      http.post('/api/swap-days/9/close', () =>
        errorJson(409, 'This swap day was already matched.', 'SWAP_DAY_CLOSED'),
      ),
    );
    const api = recordRequests();
    renderWithProviders(<SwapDayDetail id={9} />);
    await user.click(await screen.findByRole('button', { name: 'Close want lists and match now' }));
    const dialog = screen.getByRole('dialog', { name: 'Close want lists and match now?' });
    await user.click(within(dialog).getByRole('button', { name: 'Close and Match' }));
    expect(await screen.findByText('This swap day was already matched.')).toBeInTheDocument();
    expect(api.to('POST /api/swap-days/9/close')).toHaveLength(1);
  });

  it('while it is matched: "Matching…" with its stage, and nothing to change', async () => {
    server.use(
      http.get('/api/swap-days/9', () =>
        HttpResponse.json(swapDay({ status: 'matching', matchStage: 'solving', allowedActions: [] })),
      ),
    );
    renderWithProviders(<SwapDayDetail id={9} />);
    const note = await screen.findByText(/Matching… finding the loops that trade the most items\./);
    expect(note.closest('[role="status"]')).not.toBeNull();
    expect(screen.getByText(/Your hand-overs show here as soon as it is done\./)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Close want lists and match now' })).toBeNull();
  });

  it('a failed match says why; the organizer tries again and sees it matching', async () => {
    const user = userEvent.setup();
    const failed = swapDay({
      status: 'failed',
      matchFailure: 'time-limit',
      isOrganiser: true,
      allowedActions: ['close', 'cancel'],
    });
    server.use(
      http.get('/api/swap-days/9', () => HttpResponse.json(failed)),
      http.post('/api/swap-days/9/close', () =>
        HttpResponse.json(swapDay({ status: 'matching', matchStage: 'waiting', allowedActions: [] }), {
          status: 202,
        }),
      ),
    );
    const api = recordRequests();
    renderWithProviders(<SwapDayDetail id={9} />);
    expect(
      await screen.findByText(
        'Matching ran past its time limit without an answer. Nobody was matched yet. Try matching again, or cancel the swap day.',
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try Matching Again' }));
    expect(await screen.findByText(/Matching… starting in a moment\./)).toBeInTheDocument();
    expect(api.to('POST /api/swap-days/9/close')).toHaveLength(1);
  });

  it('after matching: what you give and get, each linking to its hand-over', async () => {
    server.use(
      http.get('/api/swap-days/9', () =>
        HttpResponse.json(
          swapDay({
            status: 'solved',
            allowedActions: [],
            result: {
              itemsTraded: 3,
              membersTrading: 3,
              solvedAt: '2030-05-03T17:00:00.000Z',
              gives: [
                {
                  item: { id: 1, title: 'Camping stove', category: 'tools', isService: false },
                  member: ref('u3', 'Dee D.'),
                  barterId: 41,
                  barterStatus: 'accepted',
                  loop: 1,
                },
              ],
              gets: [
                {
                  item: { id: 2, title: 'Cordless drill', category: 'tools', isService: false },
                  member: ref('u2', 'Ben B.'),
                  barterId: 42,
                  barterStatus: 'completed',
                  loop: 1,
                },
              ],
            },
          }),
        ),
      ),
    );
    renderWithProviders(<SwapDayDetail id={9} />);
    expect(await screen.findByRole('link', { name: 'You give Camping stove to Dee D.' })).toHaveAttribute(
      'href',
      '/barters/41',
    );
    expect(screen.getByRole('link', { name: 'You get Cordless drill from Ben B.' })).toHaveAttribute(
      'href',
      '/barters/42',
    );
    expect(screen.getByText('Matched: 3 items change hands among 3 neighbors.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Your pick-up sheet' })).toHaveAttribute(
      'href',
      '/swap-days/9/sheet',
    );
    // Read-only rankings, no offering.
    expect(screen.queryByRole('button', { name: 'Save ranking' })).toBeNull();
  });
});
