import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { HAND_OVER_PLAN_ERROR_CODES, type HandOverPlan } from '#common/schemas/hand-over-plans.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { errorJson, recordRequests, server } from '#web/testing/server.ts';
import { barter } from '../testing/fixtures';
import { handOverPlacesHandler, handOverPlan, handOverPlanHandler } from '../testing/hand-over-plan';
import { HandOverPlanSection } from './hand-over-plan';

// Planning the hand-over (issue 30, ADR 077): the plan's section on an accepted barter's page.

const PLAN = '/api/barter-requests/7/hand-over-plan';
const accepted = barter({
  status: 'accepted',
  expiresAt: null,
  allowedActions: ['cancel', 'confirm', 'message'],
});
const render = () => renderWithProviders(<HandOverPlanSection barter={accepted} />, { path: '/barters/7' });
const section = () => screen.getByRole('region', { name: 'Hand-over plan' });

describe('HandOverPlanSection', () => {
  it('with no plan yet, proposes a window and a place typed by keyboard', async () => {
    const proposed = handOverPlan({ proposedBy: 'me', place: 'Station café, platform 2' });
    server.use(
      handOverPlanHandler(7, null),
      handOverPlacesHandler(7),
      http.put(PLAN, () => HttpResponse.json(proposed)),
    );
    const requests = recordRequests();
    render();
    expect(await within(section()).findByText(/No time and place yet/)).toHaveTextContent(
      'Ann R. accepts it',
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Propose a time and place' }));
    const form = screen.getByRole('form', { name: 'Propose a time and place' });
    expect(within(form).getByLabelText('From')).toHaveAttribute('type', 'datetime-local');
    await user.type(within(form).getByRole('textbox', { name: 'Place' }), 'Station café, platform 2');
    await user.keyboard('{Enter}');
    expect(await screen.findByText('You proposed this. Waiting for Ann R. to answer.')).toBeInTheDocument();
    const [body] = (await requests.bodiesOf(`PUT ${PLAN}`)) as Array<Record<string, unknown>>;
    expect(body).toMatchObject({ place: 'Station café, platform 2', replaces: null, spotId: null });
    const start = new Date(String(body?.startsAt));
    const end = new Date(String(body?.endsAt));
    expect(start.getTime()).toBeGreaterThan(Date.now());
    expect(end.getTime() - start.getTime()).toBe(3_600_000);
    expect(screen.getByText('Station café, platform 2')).toBeInTheDocument();
  });

  it('says a bad window or a missing place at once, without asking the server', async () => {
    server.use(handOverPlanHandler(7, null), handOverPlacesHandler(7));
    const requests = recordRequests();
    render();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Propose a time and place' }));
    const from = screen.getByLabelText('From');
    await user.clear(from);
    await user.type(from, '2020-01-01T10:00');
    await user.click(screen.getByRole('button', { name: 'Send this plan' }));
    const alerts = await screen.findAllByRole('alert');
    expect(alerts.map((alert) => alert.textContent)).toEqual([
      'The hand-over must start in the future.',
      'Say where you will meet.',
    ]);
    expect(from).toHaveAttribute('aria-invalid', 'true');
    expect(requests.to(`PUT ${PLAN}`)).toHaveLength(0);
  });

  it("accepts the other member's proposal, naming its version; then the calendar, running late, reschedule", async () => {
    const theirs = handOverPlan();
    const agreed: HandOverPlan = { ...theirs, state: 'agreed', agreedAt: new Date().toISOString() };
    const late: HandOverPlan = { ...agreed, late: { by: 'me', minutes: 10, at: new Date().toISOString() } };
    server.use(
      handOverPlanHandler(7, theirs),
      handOverPlacesHandler(7),
      http.post(`${PLAN}/accept`, () => HttpResponse.json(agreed)),
      http.post(`${PLAN}/late`, () => HttpResponse.json(late)),
    );
    const requests = recordRequests();
    render();
    expect(
      await screen.findByText('Ann R. proposed this. Accept it or suggest another.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Central Library, main entrance')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Accept this plan' }));
    expect(await screen.findByText('Agreed by both of you.')).toBeInTheDocument();
    expect(await requests.bodiesOf(`POST ${PLAN}/accept`)).toEqual([{ version: 1 }]);
    const calendar = screen.getByRole('link', { name: 'Add to calendar' });
    expect(calendar).toHaveAttribute('href', `${PLAN}.ics`);
    expect(calendar).toHaveAttribute('download', 'hand-over-7.ics');
    const group = screen.getByRole('group', { name: "I'm running late" });
    expect(
      within(group)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['5 min', '10 min', '15 min', '30 min']);
    await user.click(within(group).getByRole('button', { name: "I'm running 10 minutes late" }));
    expect(await screen.findByText(/You told Ann R\. you are running 10 minutes late/)).toBeInTheDocument();
    expect(await requests.bodiesOf(`POST ${PLAN}/late`)).toEqual([{ version: 1, minutes: 10 }]);
    // Reschedule opens the form with the agreed plan in it; it replaces version 1.
    server.use(http.put(PLAN, () => HttpResponse.json({ ...theirs, version: 2, proposedBy: 'me' })));
    await user.click(screen.getByRole('button', { name: 'Reschedule' }));
    expect(screen.getByRole('textbox', { name: 'Place' })).toHaveValue('Central Library, main entrance');
    await user.click(screen.getByRole('button', { name: 'Send this plan' }));
    expect(await screen.findByText('You proposed this. Waiting for Ann R. to answer.')).toBeInTheDocument();
    expect(await requests.bodiesOf(`PUT ${PLAN}`)).toEqual([
      expect.objectContaining({ replaces: 1, place: 'Central Library, main entrance' }),
    ]);
  });

  it('a plan changed meanwhile (409): says so and shows the new one', async () => {
    let plan = handOverPlan();
    server.use(
      http.get(PLAN, () => HttpResponse.json(plan)),
      http.post(`${PLAN}/accept`, () => {
        plan = handOverPlan({ version: 2, place: 'Park gate' });
        return errorJson(409, 'changed', HAND_OVER_PLAN_ERROR_CODES.changed);
      }),
    );
    render();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Accept this plan' }));
    expect(await screen.findByText('The plan changed meanwhile: here is the new one.')).toBeInTheDocument();
    expect(await screen.findByText('Park gate')).toBeInTheDocument();
  });

  it('says when the other member is running late', async () => {
    const at = new Date().toISOString();
    server.use(
      handOverPlanHandler(
        7,
        handOverPlan({ state: 'agreed', agreedAt: at, late: { by: 'other', minutes: 15, at } }),
      ),
    );
    render();
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(/Ann R\. is running 15 minutes late/),
    );
  });

  it('offers the public spots near both members, fairest first; choosing one sends its id', async () => {
    const proposed = handOverPlan({ proposedBy: 'me', place: 'Belmont Library' });
    server.use(
      handOverPlanHandler(7, null),
      handOverPlacesHandler(7, {
        spots: [
          { id: 3, name: 'Belmont Library', kind: 'library', area: 'Portland, Oregon, United States' },
          {
            id: 9,
            name: 'Central Precinct lobby',
            kind: 'police_safe_trade',
            area: 'Portland, Oregon, United States',
          },
        ],
        fairestArea: null,
      }),
      http.put(PLAN, () => HttpResponse.json(proposed)),
    );
    const requests = recordRequests();
    render();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Propose a time and place' }));
    const group = await screen.findByRole('group', { name: 'Public spots near you both' });
    const radios = within(group).getAllByRole('radio');
    expect(radios.map((radio) => radio.closest('label')?.textContent)).toEqual([
      'Belmont Library · Library · Portland, Oregon, United States',
      'Central Precinct lobby · Police safe-trade spot · Portland, Oregon, United States',
    ]);
    // No distance to anyone is shown.
    expect(group).not.toHaveTextContent(/mi\b|km\b|miles/);
    // By keyboard: focus the first spot and choose it with Space.
    radios[0]?.focus();
    await user.keyboard(' ');
    expect(screen.getByRole('textbox', { name: 'Place' })).toHaveValue('Belmont Library');
    await user.click(screen.getByRole('button', { name: 'Send this plan' }));
    expect(await screen.findByText('You proposed this. Waiting for Ann R. to answer.')).toBeInTheDocument();
    expect(await requests.bodiesOf(`PUT ${PLAN}`)).toEqual([
      expect.objectContaining({ place: 'Belmont Library', spotId: 3 }),
    ]);
  });

  it('with no spot near, suggests the fairest named area: one click fills the place', async () => {
    const area = 'Buckman, Portland, Oregon, United States';
    server.use(
      handOverPlanHandler(7, null),
      handOverPlacesHandler(7, { spots: [], fairestArea: { name: area } }),
      http.put(PLAN, () => HttpResponse.json(handOverPlan({ proposedBy: 'me', place: area }))),
    );
    const requests = recordRequests();
    render();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Propose a time and place' }));
    expect(screen.queryByRole('group', { name: 'Public spots near you both' })).not.toBeInTheDocument();
    const suggestion = await screen.findByRole('button', { name: `Suggested: ${area}` });
    expect(suggestion).toHaveAttribute('aria-pressed', 'false');
    await user.click(suggestion);
    expect(screen.getByRole('textbox', { name: 'Place' })).toHaveValue(area);
    expect(suggestion).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByRole('button', { name: 'Send this plan' }));
    expect(await screen.findByText('You proposed this. Waiting for Ann R. to answer.')).toBeInTheDocument();
    expect(await requests.bodiesOf(`PUT ${PLAN}`)).toEqual([
      expect.objectContaining({ place: area, spotId: null }),
    ]);
  });
});
