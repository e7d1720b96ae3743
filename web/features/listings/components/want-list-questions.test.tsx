import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { WANT_ERROR_CODES, type Want, type WantQuestion } from '#common/schemas/listings.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { errorJson, pagedJson, recordRequests, server } from '#web/testing/server.ts';
import { WantListTab } from './want-list-tab';

// "Did this fill your want?" on the Want List (issue 30, ADR 073): the open questions of every
// completed barter, each on its want's row, answered as on the barter's page.

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

/**
 * A member's wants and open questions, answered as the server answers them: yes fulfils the want and
 * drops its other questions, no drops that one question; an answer to no open question is a 404.
 */
function stubWants(wants: Want[], questions: WantQuestion[]) {
  const state = { wants, questions };
  server.use(
    http.get('/api/wants/my', () => pagedJson(state.wants)),
    http.get('/api/wants/questions', () => HttpResponse.json(state.questions)),
    http.post('/api/wants/:id/answer', async ({ params, request }) => {
      const wantId = Number(params.id);
      const { barterRequestId, filled } = (await request.json()) as {
        barterRequestId: number;
        filled: boolean;
      };
      const asked = state.questions.some(
        (question) => question.wantId === wantId && question.barterRequestId === barterRequestId,
      );
      if (!asked)
        return errorJson(
          404,
          'There is no open question about this want for this barter.',
          WANT_ERROR_CODES.questionNotFound,
        );
      state.questions = state.questions.filter(
        (question) => question.wantId !== wantId || (!filled && question.barterRequestId !== barterRequestId),
      );
      if (filled)
        state.wants = state.wants.map((row) =>
          row.id === wantId ? { ...row, isActive: false, fulfilledAt: '2026-03-01T10:00:00.000Z' } : row,
        );
      return HttpResponse.json(state.wants.find((row) => row.id === wantId));
    }),
  );
  return { state, sent: recordRequests() };
}

/** The Want List's row (its card) of the want titled `title`, among the active ones. */
async function rowOf(title: string) {
  const heading = await screen.findByRole('heading', { level: 3, name: title });
  return heading.closest('li') as HTMLElement;
}

describe('"Did this fill your want?" on the Want List', () => {
  it('asks on the want’s row, one line per barter, links each barter, and asks nothing elsewhere', async () => {
    const { sent } = stubWants(
      [
        want(1, { title: 'Cordless drill' }),
        want(2, { title: 'Road bike' }),
        want(3, { title: 'Bread maker', isActive: false, fulfilledAt: '2026-02-01T10:00:00.000Z' }),
      ],
      [
        { barterRequestId: 9, wantId: 1, title: 'Cordless drill' },
        { barterRequestId: 12, wantId: 1, title: 'Cordless drill' },
      ],
    );
    renderWithProviders(<WantListTab />);

    const drill = await rowOf('Cordless drill');
    const asked = await within(drill).findByRole('list', { name: 'Questions about this want' });
    const lines = within(asked).getAllByRole('listitem');
    expect(lines.map((line) => line.textContent)).toEqual([
      'Did this completed barter fill your want?YesNo',
      'Did this completed barter fill your want?YesNo',
    ]);
    expect(
      within(asked)
        .getAllByRole('link', { name: 'this completed barter' })
        .map((link) => link.getAttribute('href')),
    ).toEqual(['/barters/9', '/barters/12']);
    expect(
      within(asked).getAllByRole('button', { name: 'Yes, this filled my want: Cordless drill' }),
    ).toHaveLength(2);
    // All of the member's open questions, not one barter's.
    expect(sent.to('GET /api/wants/questions').map((request) => request.url)).toEqual([
      '/api/wants/questions',
    ]);

    // A want nothing was received for, and a fulfilled one, ask nothing.
    expect(within(await rowOf('Road bike')).queryByRole('list')).not.toBeInTheDocument();
    const fulfilled = screen.getByRole('region', { name: 'Fulfilled' });
    expect(within(fulfilled).queryByRole('button', { name: /^Yes/ })).not.toBeInTheDocument();
  });

  it('Yes fulfils the want: it leaves the active part for Fulfilled, and its other questions go', async () => {
    const { sent } = stubWants(
      [want(1, { title: 'Cordless drill' }), want(2, { title: 'Road bike' })],
      [
        { barterRequestId: 9, wantId: 1, title: 'Cordless drill' },
        { barterRequestId: 12, wantId: 1, title: 'Cordless drill' },
      ],
    );
    renderWithProviders(<WantListTab />);
    const drill = await rowOf('Cordless drill');
    const [first] = within(drill).getAllByRole('button', {
      name: 'Yes, this filled my want: Cordless drill',
    });
    await userEvent.click(first as HTMLElement);

    await waitFor(async () =>
      expect(await sent.bodiesOf('POST /api/wants/1/answer')).toEqual([{ barterRequestId: 9, filled: true }]),
    );
    expect(
      await screen.findByText('"Cordless drill" moved to the fulfilled part of your want list.'),
    ).toBeInTheDocument();
    const fulfilled = await screen.findByRole('region', { name: 'Fulfilled' });
    expect(within(fulfilled).getByText('Cordless drill')).toBeInTheDocument();
    expect(
      within(fulfilled).getByRole('button', { name: 'I want more of these: Cordless drill' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Questions about this want' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Cordless drill' })).not.toBeInTheDocument();
  });

  it('No drops only that question; the want stays active and matching', async () => {
    const { sent } = stubWants(
      [want(1, { title: 'Cordless drill' })],
      [
        { barterRequestId: 9, wantId: 1, title: 'Cordless drill' },
        { barterRequestId: 12, wantId: 1, title: 'Cordless drill' },
      ],
    );
    renderWithProviders(<WantListTab />);
    const drill = await rowOf('Cordless drill');
    const [, second] = within(drill).getAllByRole('button', {
      name: 'No, I am still looking for: Cordless drill',
    });
    await userEvent.click(second as HTMLElement);

    await waitFor(async () =>
      expect(await sent.bodiesOf('POST /api/wants/1/answer')).toEqual([
        { barterRequestId: 12, filled: false },
      ]),
    );
    await waitFor(() =>
      expect(within(drill).getAllByRole('link', { name: 'this completed barter' })).toHaveLength(1),
    );
    expect(within(drill).getByRole('link', { name: 'this completed barter' })).toHaveAttribute(
      'href',
      '/barters/9',
    );
    expect(within(drill).getByRole('button', { name: 'Edit Cordless drill' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Fulfilled' })).not.toBeInTheDocument();
  });

  it('says why when the question was answered meanwhile (on the barter’s page), and reads the list again', async () => {
    const { state, sent } = stubWants(
      [want(1, { title: 'Cordless drill' })],
      [{ barterRequestId: 9, wantId: 1, title: 'Cordless drill' }],
    );
    renderWithProviders(<WantListTab />);
    const drill = await rowOf('Cordless drill');
    // Answered No on the barter's page in another tab.
    state.questions = [];
    await userEvent.click(
      within(drill).getByRole('button', { name: 'No, I am still looking for: Cordless drill' }),
    );

    expect(
      await screen.findByText('There is no open question about this want for this barter.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(within(drill).queryByRole('list')).not.toBeInTheDocument());
    expect(sent.to('GET /api/wants/questions')).toHaveLength(2);
  });

  it('is answered from the keyboard', async () => {
    const user = userEvent.setup();
    const { sent } = stubWants(
      [want(1, { title: 'Cordless drill' })],
      [{ barterRequestId: 9, wantId: 1, title: 'Cordless drill' }],
    );
    renderWithProviders(<WantListTab />);
    const drill = await rowOf('Cordless drill');
    const link = within(drill).getByRole('link', { name: 'this completed barter' });
    const yes = within(drill).getByRole('button', { name: 'Yes, this filled my want: Cordless drill' });
    link.focus();
    await user.tab();
    expect(yes).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(async () =>
      expect(await sent.bodiesOf('POST /api/wants/1/answer')).toEqual([{ barterRequestId: 9, filled: true }]),
    );
  });
});
