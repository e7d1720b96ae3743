import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Barter } from '#common/schemas/barters.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { recordRequests, server } from '#web/testing/server.ts';
import { useBarter } from '../api/barters';
import { formatDateTime } from '../barter-sides';
import { barter } from '../testing/fixtures';
import { RatingForm, Ratings } from './rating-form';

// Issue 30, ADR 074: ratings are revealed together. What a barter's page says about each rating.

const BASE = '/api/barter-requests/7';
const UNTIL = '2026-03-15T10:00:00.000Z';
const completed = (overrides: Partial<Barter> = {}) =>
  barter({ status: 'completed', expiresAt: null, allowedActions: ['rate', 'message'], ...overrides });

/** The ratings part of a barter's page, as BarterDetail draws it, over the barter the API answers. */
function RatingsPart() {
  const query = useBarter(7);
  if (!query.data) return null;
  return (
    <>
      <Ratings barter={query.data} />
      {query.data.allowedActions.includes('rate') ? <RatingForm barter={query.data} /> : null}
    </>
  );
}

const ratings = () => screen.getByRole('region', { name: 'Ratings' });
/** The text of the row named `label` ("Your rating", "Ann R.'s rating"). */
const row = (label: string) => within(ratings()).getByText(label).closest('div') as HTMLElement;

describe('Ratings revealed together', () => {
  it('the first to rate sees their rating at once, and until when the other does not', async () => {
    const first = completed();
    const api = recordRequests();
    server.use(
      http.get(BASE, () => HttpResponse.json(first)),
      http.post(`${BASE}/rating`, () =>
        HttpResponse.json({
          ...first,
          allowedActions: ['message'],
          myRating: { stars: 4, comment: 'Lovely bike' },
          myRatingHiddenUntil: UNTIL,
        }),
      ),
    );
    renderWithProviders(<RatingsPart />);
    const form = await screen.findByRole('form', { name: 'Rate Ann R.' });
    expect(
      screen.getByText(
        'Ratings are revealed together: each shows once both of you have rated, or 14 days after the first.',
      ),
    ).toBeInTheDocument();
    await userEvent.click(within(form).getByRole('radio', { name: '4 stars' }));
    await userEvent.type(within(form).getByLabelText('Comment (optional)'), 'Lovely bike');
    await userEvent.click(within(form).getByRole('button', { name: 'Rate' }));

    await waitFor(() => expect(screen.queryByRole('form', { name: 'Rate Ann R.' })).not.toBeInTheDocument());
    expect(await api.bodiesOf(`POST ${BASE}/rating`)).toEqual([{ stars: 4, comment: 'Lovely bike' }]);
    const mine = row('Your rating');
    expect(within(mine).getByRole('img', { name: '4 out of 5 stars' })).toBeInTheDocument();
    expect(within(mine).getByText('Lovely bike')).toBeInTheDocument();
    expect(mine).toHaveTextContent(
      `Hidden from Ann R. until they rate this barter too, or until ${formatDateTime(UNTIL)}.`,
    );
    expect(row("Ann R.'s rating")).toHaveTextContent('Ann R. has not rated this barter yet.');
  });

  it('the member rated is told a rating waits for theirs, without its stars', async () => {
    server.use(http.get(BASE, () => HttpResponse.json(completed({ theirRatingHiddenUntil: UNTIL }))));
    renderWithProviders(<RatingsPart />);
    await screen.findByRole('form', { name: 'Rate Ann R.' });
    const theirs = row("Ann R.'s rating");
    expect(theirs).toHaveTextContent(
      `Ann R. rated this barter. Their rating is hidden until you rate it too, or until ${formatDateTime(UNTIL)}.`,
    );
    expect(within(ratings()).queryByRole('img')).not.toBeInTheDocument();
    expect(row('Your rating')).toHaveTextContent('You have not rated this barter yet.');
  });

  it('once both rated, both show and nothing is hidden', async () => {
    server.use(
      http.get(BASE, () =>
        HttpResponse.json(
          completed({
            allowedActions: ['message'],
            myRating: { stars: 4, comment: null },
            theirRating: { stars: 5, comment: 'Great neighbour' },
          }),
        ),
      ),
    );
    renderWithProviders(<RatingsPart />);
    await screen.findByRole('region', { name: 'Ratings' });
    expect(within(row('Your rating')).getByRole('img', { name: '4 out of 5 stars' })).toBeInTheDocument();
    expect(within(row("Ann R.'s rating")).getByRole('img', { name: '5 out of 5 stars' })).toBeInTheDocument();
    expect(screen.getByText('Great neighbour')).toBeInTheDocument();
    expect(screen.queryByText(/Hidden from/)).not.toBeInTheDocument();
    expect(screen.queryByText(/is hidden until/)).not.toBeInTheDocument();
  });
});
