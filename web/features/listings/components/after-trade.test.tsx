import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Item, Want, WantQuestion } from '#common/schemas/listings.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { pagedJson, recordRequests, server } from '#web/testing/server.ts';
import { MyItemsTab } from './my-items-tab';
import { WantListTab } from './want-list-tab';
import { WantQuestions } from './want-questions';

// Items and wants after a trade (issue 30, ADR 073).

const item = (id: number, overrides: Partial<Item> = {}): Item => ({
  id,
  title: `Item ${id}`,
  description: `Description ${id}`,
  category: 'tools',
  isService: false,
  imageUrl: null,
  thumbnailUrl: null,
  estimatedValue: null,
  isActive: true,
  moderation: null,
  isReserved: false,
  traded: null,
  allowedActions: ['edit', 'hide', 'delete'],
  viewCount: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

const want = (id: number, overrides: Partial<Want> = {}): Want => ({
  id,
  title: `Want ${id}`,
  description: null,
  category: 'tools',
  isService: false,
  maxValue: null,
  isActive: true,
  fulfilledAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

const traded = (overrides: Partial<NonNullable<Item['traded']>> = {}): Item['traded'] => ({
  at: '2026-02-01T10:00:00.000Z',
  barterRequestId: 9,
  to: { id: 'ben', displayName: 'Ben R.' },
  swapDay: null,
  ...overrides,
});

describe('My Items after a trade', () => {
  it('reads "Traded to <name>" or "Given at <swap day>", with no Show and no Edit', async () => {
    server.use(
      http.get('/api/items/my', () =>
        pagedJson([
          item(1, { isActive: false, traded: traded(), allowedActions: ['delete'] }),
          item(2, {
            isActive: false,
            traded: traded({ swapDay: { id: 4, name: 'Elm Street swap' } }),
            allowedActions: ['delete'],
          }),
          item(3, { isActive: false, allowedActions: ['edit', 'show', 'delete'] }),
        ]),
      ),
    );
    renderWithProviders(<MyItemsTab />);
    const [toBen, atSwapDay, hidden] = (await screen.findAllByRole('listitem')) as [
      HTMLElement,
      HTMLElement,
      HTMLElement,
    ];
    expect(within(toBen).getByText('Traded to Ben R.')).toBeInTheDocument();
    expect(within(atSwapDay).getByText('Given at Elm Street swap')).toBeInTheDocument();
    for (const row of [toBen, atSwapDay]) {
      expect(within(row).queryByText('Hidden')).not.toBeInTheDocument();
      expect(
        within(row)
          .getAllByRole('button')
          .map((button) => button.textContent),
      ).toEqual(['Delete']);
    }
    // A hidden item that was never traded keeps its Show.
    expect(within(hidden).getByText('Hidden')).toBeInTheDocument();
    expect(within(hidden).getByRole('button', { name: 'Show Item 3' })).toBeInTheDocument();
  });
});

describe('Want List after a trade', () => {
  it('lists fulfilled wants apart, and "I want more of these" keeps one open', async () => {
    let wants = [
      want(1, { title: 'Road bike' }),
      want(2, { title: 'Bread maker', isActive: false, fulfilledAt: '2026-02-01T10:00:00.000Z' }),
    ];
    server.use(
      http.get('/api/wants/my', () => pagedJson(wants)),
      http.get('/api/wants/questions', () => HttpResponse.json([])),
      http.post('/api/wants/2/keep-open', () => {
        wants = wants.map((row) => (row.id === 2 ? { ...row, isActive: true, fulfilledAt: null } : row));
        return HttpResponse.json(wants[1]);
      }),
    );
    const sent = recordRequests();
    renderWithProviders(<WantListTab />);
    const fulfilled = await screen.findByRole('region', { name: 'Fulfilled' });
    expect(within(fulfilled).getByText('Bread maker')).toBeInTheDocument();
    expect(within(fulfilled).queryByText('Road bike')).not.toBeInTheDocument();
    expect(within(fulfilled).queryByRole('button', { name: /Edit/ })).not.toBeInTheDocument();

    await userEvent.click(
      within(fulfilled).getByRole('button', { name: 'I want more of these: Bread maker' }),
    );
    expect(sent.to('POST /api/wants/2/keep-open')).toHaveLength(1);
    // Read again: back in the active part, and the Fulfilled part is gone.
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Fulfilled' })).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Edit Bread maker' })).toBeInTheDocument();
  });
});

describe('"Did this fill your want?" on a completed barter', () => {
  it('asks about each matching want and answers with one click', async () => {
    let questions: WantQuestion[] = [
      { barterRequestId: 9, wantId: 5, title: 'Cordless drill' },
      { barterRequestId: 9, wantId: 6, title: 'Any tools' },
    ];
    server.use(
      http.get('/api/wants/questions', ({ request }) => {
        expect(new URL(request.url).searchParams.get('barterRequestId')).toBe('9');
        return HttpResponse.json(questions);
      }),
      http.post('/api/wants/:id/answer', ({ params }) => {
        questions = questions.filter((question) => question.wantId !== Number(params.id));
        return HttpResponse.json(want(Number(params.id)));
      }),
      // A fulfilled want changes the Want List and Barter Match; nothing else here reads them.
    );
    const sent = recordRequests();
    renderWithProviders(<WantQuestions barterRequestId={9} />);
    const section = await screen.findByRole('region', { name: 'Did this fill your want?' });
    await userEvent.click(
      within(section).getByRole('button', { name: 'Yes, this filled my want: Cordless drill' }),
    );
    expect(await sent.bodiesOf('POST /api/wants/5/answer')).toEqual([{ barterRequestId: 9, filled: true }]);
    await waitFor(() => expect(screen.queryByText('Cordless drill')).not.toBeInTheDocument());

    await userEvent.click(screen.getByRole('button', { name: 'No, I am still looking for: Any tools' }));
    expect(await sent.bodiesOf('POST /api/wants/6/answer')).toEqual([{ barterRequestId: 9, filled: false }]);
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Did this fill your want?' })).not.toBeInTheDocument(),
    );
  });

  it('shows nothing when there is nothing to ask', async () => {
    server.use(http.get('/api/wants/questions', () => HttpResponse.json([])));
    const sent = recordRequests();
    renderWithProviders(<WantQuestions barterRequestId={9} />);
    await waitFor(() => expect(sent.to('GET /api/wants/questions')).toHaveLength(1));
    expect(screen.queryByRole('region', { name: 'Did this fill your want?' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Yes/ })).not.toBeInTheDocument();
  });
});
