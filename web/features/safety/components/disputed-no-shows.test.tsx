import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { DisputedNoShow } from '#common/schemas/no-shows.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { recordRequests, server } from '#web/testing/server.ts';
import { DisputedNoShowsPanel } from './disputed-no-shows';

// The moderators' queue of disputed no-show reports (issue 30, ADR 079).

const URL = '/api/moderation/no-shows';

const disputed = (overrides: Partial<DisputedNoShow> = {}): DisputedNoShow => ({
  id: 4,
  barterRequestId: 12,
  windowEndsAt: '2026-11-26T18:00:00.000Z',
  createdAt: '2026-11-26T19:00:00.000Z',
  reporter: { id: 'ann', name: 'Ann R.' },
  reported: { id: 'ben', name: 'Ben S.' },
  answer: 'was_there',
  note: 'I waited by the door until six',
  answeredAt: '2026-11-27T08:00:00.000Z',
  ...overrides,
});

describe('DisputedNoShowsPanel', () => {
  it('shows who reported whom, the answer and its note; a decision by keyboard takes the case off the list', async () => {
    let cases: DisputedNoShow[] = [
      disputed(),
      disputed({
        id: 5,
        barterRequestId: 13,
        reporter: { id: 'cat', name: 'Cat T.' },
        reported: { id: 'dan', name: 'Dan U.' },
        answer: 'rescheduled',
        note: null,
      }),
    ];
    server.use(
      http.get(URL, () => HttpResponse.json(cases)),
      http.post(`${URL}/:id/decision`, ({ params }) => {
        cases = cases.filter((item) => String(item.id) !== params.id);
        return new HttpResponse(null, { status: 204 });
      }),
      http.get('/api/moderation/audit', () => HttpResponse.json([])),
    );
    const requests = recordRequests();
    renderWithProviders(<DisputedNoShowsPanel />, { path: '/moderation' });
    const list = await screen.findByRole('list', { name: 'Disputed no-show reports' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(first).toHaveTextContent('Ann R. reported that Ben S. did not come (barter #12).');
    expect(first).toHaveTextContent(/Ben S\. answered on .*: I was there\./);
    expect(first).toHaveTextContent('I waited by the door until six');
    expect(second).toHaveTextContent(/Dan U\. answered on .*: we rescheduled\./);

    const user = userEvent.setup();
    const group = within(list).getByRole('group', { name: 'Decide the report about Ben S.' });
    within(group).getByRole('button', { name: 'Kept' }).focus();
    await user.tab();
    expect(within(group).getByRole('button', { name: 'Missed' })).toHaveFocus();
    await user.keyboard('{Enter}');

    expect(await screen.findByText('Decided: missed. Recorded in the audit log.')).toBeInTheDocument();
    expect(await requests.bodiesOf(`POST ${URL}/4/decision`)).toEqual([{ decision: 'missed' }]);
    await screen.findByRole('group', { name: 'Decide the report about Dan U.' });
    expect(screen.queryByText(/Ben S\./)).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(await screen.findByText('No disputed no-show reports.')).toBeInTheDocument();
    expect(await requests.bodiesOf(`POST ${URL}/5/decision`)).toEqual([{ decision: 'dismissed' }]);
  });

  it('says why a decision was refused (a report the moderator is part of)', async () => {
    server.use(
      http.get(URL, () => HttpResponse.json([disputed()])),
      http.post(`${URL}/:id/decision`, () =>
        HttpResponse.json(
          { message: 'Another moderator must decide a report you are part of.', code: 'FORBIDDEN' },
          { status: 403 },
        ),
      ),
    );
    renderWithProviders(<DisputedNoShowsPanel />, { path: '/moderation' });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Kept' }));
    expect(
      await screen.findByText('Another moderator must decide a report you are part of.'),
    ).toBeInTheDocument();
    // The case stays on the list.
    expect(
      within(screen.getByRole('list', { name: 'Disputed no-show reports' })).getByRole('listitem'),
    ).toHaveTextContent('Ann R. reported that Ben S. did not come');
  });
});
