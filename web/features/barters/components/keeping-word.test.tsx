import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Attendance } from '#common/schemas/no-shows.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { recordRequests, server } from '#web/testing/server.ts';
import { barter } from '../testing/fixtures';
import { handOverPlan, handOverPlanHandler } from '../testing/hand-over-plan';
import { HandOverPlanSection } from './hand-over-plan';
import { KeepingWord } from './keeping-word';

// Keeping your word (issue 30, ADR 079): the report, the answer and "Confirm you'll be there" on an
// accepted barter's page.

const URL = '/api/barter-requests/7/attendance';
const HOUR = 3_600_000;
const accepted = barter({
  status: 'accepted',
  expiresAt: null,
  allowedActions: ['cancel', 'confirm', 'message'],
});
const passed = handOverPlan({
  state: 'agreed',
  agreedAt: new Date(Date.now() - 5 * HOUR).toISOString(),
  startsAt: new Date(Date.now() - 3 * HOUR).toISOString(),
  endsAt: new Date(Date.now() - 2 * HOUR).toISOString(),
});
const attendance = (overrides: Partial<Attendance> = {}): Attendance => ({
  planVersion: 1,
  canReport: false,
  myReport: null,
  aboutMe: null,
  confirm: { askMe: false, myConfirmedAt: null, otherAsked: false, otherConfirmedAt: null },
  ...overrides,
});
const report = (overrides: Partial<NonNullable<Attendance['aboutMe']>> = {}) => ({
  id: 3,
  planVersion: 1,
  createdAt: new Date(Date.now() - HOUR).toISOString(),
  answerBy: new Date(Date.now() + 47 * HOUR).toISOString(),
  answer: null,
  note: null,
  answeredAt: null,
  decision: null,
  ...overrides,
});
const render = () => renderWithProviders(<KeepingWord barter={accepted} />, { path: '/barters/7' });
const section = () => screen.findByRole('region', { name: 'Keeping your word' });

describe('KeepingWord', () => {
  it('after the window, "They didn\'t come" reports the agreed version and then says who may answer', async () => {
    server.use(
      handOverPlanHandler(7, passed),
      http.get(URL, () => HttpResponse.json(attendance({ canReport: true }))),
      http.post(`${URL}/report`, () =>
        HttpResponse.json(attendance({ canReport: false, myReport: report() })),
      ),
    );
    const requests = recordRequests();
    render();
    const region = await section();
    await userEvent.setup().click(within(region).getByRole('button', { name: "They didn't come" }));
    expect(
      await within(region).findByText(/You reported that Ann R\. did not come\. They can answer until/),
    ).toBeInTheDocument();
    expect(await requests.bodiesOf(`POST ${URL}/report`)).toEqual([{ version: 1 }]);
  });

  it('the reported member answers "We rescheduled" with a note, by keyboard; the reporter is never named', async () => {
    server.use(
      handOverPlanHandler(7, passed),
      http.get(URL, () => HttpResponse.json(attendance({ aboutMe: report() }))),
      http.post(`${URL}/answer`, () =>
        HttpResponse.json(attendance({ aboutMe: report({ answer: 'rescheduled', note: 'Sunday instead' }) })),
      ),
    );
    const requests = recordRequests();
    render();
    const region = await section();
    expect(
      within(region).getByText(/Your trading partner reported that you did not come/),
    ).toBeInTheDocument();
    expect(region).not.toHaveTextContent('Ann');
    const user = userEvent.setup();
    await user.type(within(region).getByRole('textbox', { name: 'Note (optional)' }), 'Sunday instead');
    await user.tab();
    await user.tab();
    expect(within(region).getByRole('button', { name: 'We rescheduled' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(await within(region).findByText(/You answered that you rescheduled/)).toBeInTheDocument();
    expect(await requests.bodiesOf(`POST ${URL}/answer`)).toEqual([
      { answer: 'rescheduled', note: 'Sunday instead' },
    ]);
  });

  it('after 48 hours unanswered, says it counts as missed and offers no answer', async () => {
    server.use(
      handOverPlanHandler(7, passed),
      http.get(URL, () =>
        HttpResponse.json(
          attendance({ aboutMe: report({ answerBy: new Date(Date.now() - HOUR).toISOString() }) }),
        ),
      ),
    );
    render();
    const region = await section();
    expect(within(region).getByText(/counts as a missed hand-over/)).toBeInTheDocument();
    expect(within(region).queryByRole('button', { name: 'I was there' })).toBeNull();
  });

  it('asks a member with a poor record to confirm; the other side sees whether they did', async () => {
    const soon = handOverPlan({
      state: 'agreed',
      agreedAt: new Date().toISOString(),
      startsAt: new Date(Date.now() + 2 * HOUR).toISOString(),
      endsAt: new Date(Date.now() + 3 * HOUR).toISOString(),
    });
    const confirmedAt = new Date().toISOString();
    server.use(
      handOverPlanHandler(7, soon),
      http.get(URL, () =>
        HttpResponse.json(
          attendance({
            confirm: { askMe: true, myConfirmedAt: null, otherAsked: true, otherConfirmedAt: null },
          }),
        ),
      ),
      http.post(`${URL}/confirm`, () =>
        HttpResponse.json(
          attendance({
            confirm: {
              askMe: true,
              myConfirmedAt: confirmedAt,
              otherAsked: true,
              otherConfirmedAt: confirmedAt,
            },
          }),
        ),
      ),
    );
    render();
    const region = await section();
    expect(within(region).getByText("Ann R. has not confirmed they'll be there yet.")).toBeInTheDocument();
    await userEvent.setup().click(within(region).getByRole('button', { name: "Confirm you'll be there" }));
    expect(await within(region).findByText("You confirmed you'll be there.")).toBeInTheDocument();
    expect(within(region).getByText("Ann R. confirmed they'll be there.")).toBeInTheDocument();
  });

  it('a barter cancelled after the report still offers the answer, by keyboard, within the 48 hours', async () => {
    const cancelled = barter({
      status: 'cancelled',
      expiresAt: null,
      allowedActions: ['message'],
      closedBy: 'them',
    });
    server.use(
      http.get(URL, () => HttpResponse.json(attendance({ planVersion: null, aboutMe: report() }))),
      http.post(`${URL}/answer`, () =>
        HttpResponse.json(attendance({ planVersion: null, aboutMe: report({ answer: 'was_there' }) })),
      ),
    );
    const requests = recordRequests();
    renderWithProviders(<KeepingWord barter={cancelled} />, { path: '/barters/7' });
    const region = await section();
    expect(
      within(region).getByText(/Your trading partner reported that you did not come/),
    ).toBeInTheDocument();
    const user = userEvent.setup();
    within(region).getByRole('button', { name: 'I was there' }).focus();
    await user.keyboard('{Enter}');
    expect(await within(region).findByText(/You answered that you were there/)).toBeInTheDocument();
    expect(await requests.bodiesOf(`POST ${URL}/answer`)).toEqual([{ answer: 'was_there' }]);
    // The plan of a cancelled barter is not read: the report alone decides.
    expect(requests.sent.some((request) => request.path.endsWith('/hand-over-plan'))).toBe(false);
  });

  it('a barter completed by code after the report: the reported member answers by keyboard, the reporter reads it', async () => {
    const completed = barter({ status: 'completed', expiresAt: null, allowedActions: ['rate', 'message'] });
    server.use(
      http.get(URL, () => HttpResponse.json(attendance({ aboutMe: report() }))),
      http.post(`${URL}/answer`, () =>
        HttpResponse.json(attendance({ aboutMe: report({ answer: 'rescheduled' }) })),
      ),
    );
    const requests = recordRequests();
    const { unmount } = renderWithProviders(<KeepingWord barter={completed} />, { path: '/barters/7' });
    const region = await section();
    const user = userEvent.setup();
    within(region).getByRole('button', { name: 'We rescheduled' }).focus();
    await user.keyboard('{Enter}');
    expect(await within(region).findByText(/You answered that you rescheduled/)).toBeInTheDocument();
    expect(await requests.bodiesOf(`POST ${URL}/answer`)).toEqual([{ answer: 'rescheduled' }]);
    expect(requests.sent.some((request) => request.path.endsWith('/hand-over-plan'))).toBe(false);
    unmount();

    // The reporter's side of the same barter reads the answer.
    server.use(
      http.get(URL, () =>
        HttpResponse.json(
          attendance({ myReport: report({ answer: 'rescheduled', answeredAt: new Date().toISOString() }) }),
        ),
      ),
    );
    renderWithProviders(<KeepingWord barter={completed} />, { path: '/barters/7' });
    expect(
      await within(await section()).findByText(
        /They answered that you rescheduled: a moderator will look at it/,
      ),
    ).toBeInTheDocument();
  });

  it('a completed barter whose report went unanswered for 48 hours: counted kept, no answer offered', async () => {
    const completed = barter({ status: 'completed', expiresAt: null, allowedActions: ['rate', 'message'] });
    server.use(
      http.get(URL, () =>
        HttpResponse.json(
          attendance({ aboutMe: report({ answerBy: new Date(Date.now() - HOUR).toISOString() }) }),
        ),
      ),
    );
    renderWithProviders(<KeepingWord barter={completed} />, { path: '/barters/7' });
    const region = await section();
    expect(within(region).getByText(/counts as a kept hand-over/)).toBeInTheDocument();
    expect(within(region).queryByRole('button', { name: 'I was there' })).toBeNull();
  });

  it('asks nothing while an agreed window is more than a day away', async () => {
    const later = handOverPlan({
      state: 'agreed',
      agreedAt: new Date().toISOString(),
      startsAt: new Date(Date.now() + 30 * HOUR).toISOString(),
      endsAt: new Date(Date.now() + 31 * HOUR).toISOString(),
    });
    server.use(handOverPlanHandler(7, later));
    const requests = recordRequests();
    // Beside the plan's section, which reads the same plan: once it shows, KeepingWord has decided.
    const { container } = renderWithProviders(
      <>
        <HandOverPlanSection barter={accepted} />
        <KeepingWord barter={accepted} />
      </>,
      { path: '/barters/7' },
    );
    expect(await screen.findByText('Agreed by both of you.')).toBeInTheDocument();
    expect(container).not.toHaveTextContent('Keeping your word');
    expect(requests.sent.some((request) => request.path.endsWith('/attendance'))).toBe(false);
  });
});
