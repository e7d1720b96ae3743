import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http, type RequestHandler } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Circle } from '#common/schemas/circles.ts';
import { circleKeys } from '#web/lib/query-keys.ts';
import { AnswerMarker, renderWithProviders } from '#web/testing/render.tsx';
import { errorJson, pagedJson, recordRequests, server } from '#web/testing/server.ts';
import { circle } from '../testing/fixtures';
import { TradeCirclesSection } from './trade-circles-section';

/** The circles endpoints: the lists by box, and whatever the test adds. */
function stub(lists: { proposed: Circle[]; past?: Circle[] }, ...handlers: RequestHandler[]) {
  server.use(
    // The test's own answers first: msw takes the first handler that matches.
    ...handlers,
    http.get('/api/circles', ({ request }) =>
      pagedJson(
        new URL(request.url).searchParams.get('box') === 'past' ? (lists.past ?? []) : lists.proposed,
      ),
    ),
  );
  return recordRequests();
}

const card = () => screen.getByRole('article', { name: 'Trade circle with Ben T. and Cat U.' });

describe('TradeCirclesSection', () => {
  it('shows nothing when no circle waits for an answer and none is past', async () => {
    const api = stub({ proposed: [] });
    renderWithProviders(
      <>
        <div data-testid="slot">
          <TradeCirclesSection />
        </div>
        <AnswerMarker queryKey={circleKeys.list('past')} />
      </>,
    );
    // Both answers taken in (the past list is asked for once the proposed one came back empty): still nothing.
    await screen.findByTestId('answered');
    expect(api.to('GET /api/circles').map((call) => call.query.get('box'))).toEqual(['proposed', 'past']);
    expect(screen.getByTestId('slot')).toBeEmptyDOMElement();
  });

  it('leaves only a link to past circles when none waits', async () => {
    stub({ proposed: [], past: [circle({ status: 'declined', expiresAt: null, allowedActions: [] })] });
    renderWithProviders(<TradeCirclesSection />);
    expect(await screen.findByRole('link', { name: 'Past trade circles' })).toHaveAttribute(
      'href',
      '/circles',
    );
    expect(screen.queryByRole('heading', { name: 'Trade circles' })).not.toBeInTheDocument();
  });

  it('lists a proposed circle: the sentence, the loop with who accepted, the time left and its page', async () => {
    const api = stub({ proposed: [circle({}, [false, true, false])] });
    renderWithProviders(<TradeCirclesSection />);
    expect(await screen.findByRole('heading', { name: 'Trade circles', level: 2 })).toBeInTheDocument();
    const shown = within(card());
    expect(
      shown.getByText('You give your Cordless drill to Ben T.; you get Acoustic guitar from Cat U.'),
    ).toBeInTheDocument();
    const steps = within(shown.getByRole('list', { name: 'Who gives what' })).getAllByRole('listitem');
    // In loop order from the viewer, each with its mark in words.
    expect(steps.map((step) => step.textContent)).toEqual([
      'You give Cordless drill to Ben T.Not accepted yet',
      'Ben T. gives Camping tent to Cat U.Accepted',
      'Cat U. gives Acoustic guitar to youNot accepted yet',
    ]);
    expect(shown.getByText('1 of 3 accepted')).toBeInTheDocument();
    expect(shown.getByText('2 days, 5 hours left')).toBeInTheDocument();
    expect(shown.getByRole('link', { name: 'See the whole circle with Ben T. and Cat U.' })).toHaveAttribute(
      'href',
      '/circles/5',
    );
    expect(screen.getByRole('link', { name: 'All your trade circles' })).toHaveAttribute('href', '/circles');
    // Only the proposed list was needed.
    expect(api.to('GET /api/circles').map((call) => call.query.get('box'))).toEqual(['proposed']);
  });

  it('accepts: posts the answer and shows the circle as the server answers it', async () => {
    const lists = { proposed: [circle()] };
    const api = stub(
      lists,
      http.post('/api/circles/5/accept', () => {
        const answered = circle({}, [true, false, false]);
        lists.proposed = [answered];
        return HttpResponse.json(answered);
      }),
    );
    renderWithProviders(<TradeCirclesSection />);
    await screen.findByRole('heading', { name: 'Trade circles' });
    await userEvent.click(within(card()).getByRole('button', { name: 'Accept' }));
    expect(await screen.findByText('Circle Accepted')).toBeInTheDocument();
    await waitFor(() => expect(within(card()).getByText('1 of 3 accepted')).toBeInTheDocument());
    expect(within(card()).queryByRole('button', { name: 'Accept' })).not.toBeInTheDocument();
    expect(within(card()).getByRole('button', { name: 'Decline' })).toBeInTheDocument();
    expect(api.to('POST /api/circles/5/accept')).toHaveLength(1);
    // The focus moves to what changed, not to the page's start.
    await waitFor(() => expect(within(card()).getByText('1 of 3 accepted').parentElement).toHaveFocus());
  });

  it('asks before declining, then the circle leaves the list and the section says so', async () => {
    const lists = { proposed: [circle()] };
    const api = stub(
      lists,
      http.post('/api/circles/5/decline', () => {
        lists.proposed = [];
        return HttpResponse.json(circle({ status: 'declined', expiresAt: null, allowedActions: [] }));
      }),
    );
    renderWithProviders(<TradeCirclesSection />);
    await screen.findByRole('heading', { name: 'Trade circles' });

    await userEvent.click(within(card()).getByRole('button', { name: 'Decline' }));
    const dialog = await screen.findByRole('dialog', { name: 'Decline this trade circle?' });
    expect(dialog).toHaveTextContent('Ben T. and Cat U. are told');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep Circle' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.to('POST /api/circles/5/decline')).toHaveLength(0);

    await userEvent.click(within(card()).getByRole('button', { name: 'Decline' }));
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Decline Circle' }),
    );
    expect(await screen.findByText('Circle Declined')).toBeInTheDocument();
    expect(await screen.findByText('No trade circles are waiting for your answer.')).toBeInTheDocument();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
    expect(api.to('POST /api/circles/5/decline')).toHaveLength(1);
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Trade circles' })).toHaveFocus());
  });

  it('shows the server’s sentence when an answer is refused', async () => {
    stub(
      { proposed: [circle()] },
      http.post('/api/circles/5/accept', () =>
        errorJson(
          409,
          'An item in this circle is no longer available: the circle is dissolved.',
          'CIRCLE_ITEM_UNAVAILABLE',
        ),
      ),
    );
    renderWithProviders(<TradeCirclesSection />);
    await screen.findByRole('heading', { name: 'Trade circles' });
    await userEvent.click(within(card()).getByRole('button', { name: 'Accept' }));
    expect(
      await screen.findByText('An item in this circle is no longer available: the circle is dissolved.'),
    ).toBeInTheDocument();
  });
});
