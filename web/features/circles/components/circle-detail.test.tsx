import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http, type RequestHandler } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Circle } from '#common/schemas/circles.ts';
import { barter, barterItem, chatMessage } from '#web/testing/fixtures/barters.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { errorJson, recordRequests, server } from '#web/testing/server.ts';
import { acceptedCircle, circle } from '../testing/fixtures';
import { CircleDetail } from './circle-detail';

function stub(shown: Circle | (() => Response), ...handlers: RequestHandler[]) {
  server.use(
    // The test's own answers first: msw takes the first handler that matches.
    ...handlers,
    http.get('/api/circles/5', () => (typeof shown === 'function' ? shown() : HttpResponse.json(shown))),
  );
  return recordRequests();
}

/** The viewer's hand-over in the accepted circle: they give their drill to Ben T. */
const giveBarter = barter({
  id: 41,
  threadId: 41,
  status: 'accepted',
  role: 'sender',
  otherMember: { id: 'ben', displayName: 'Ben T.', profileImageUrl: null },
  offeredItems: [barterItem(11, { title: 'Cordless drill' })],
  requestedItems: [],
  message: null,
  expiresAt: null,
  allowedActions: ['cancel', 'confirm', 'message'],
  circleId: 5,
});

/** A hand-over's plan (none yet) and the viewer's code, as the circle's page asks for them (ADR 081). */
const handOverHandlers = (id: number, code = 'K7M4QX') => [
  http.get(`/api/barter-requests/${id}/hand-over-plan`, () => HttpResponse.json(null)),
  http.get(`/api/barter-requests/${id}/hand-over-code`, () =>
    HttpResponse.json({
      code,
      link: `http://localhost/barters/${id}?code=${code}`,
      qrSvg: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 29 29"><path d="M0 0h1v1H0z"/></svg>',
    }),
  ),
];

describe('CircleDetail', () => {
  it('shows a proposed circle: status, the loop in order with pictures and accepted marks, time left', async () => {
    stub(circle({}, [false, true, true]));
    renderWithProviders(<CircleDetail id={5} />);
    expect(await screen.findByRole('heading', { name: 'Trade circle', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Waiting for everyone')).toBeInTheDocument();
    expect(
      screen.getByText('You give your Cordless drill to Ben T.; you get Acoustic guitar from Cat U.'),
    ).toBeInTheDocument();
    const loop = screen.getByRole('list', { name: 'The circle, in order' });
    expect(loop.tagName).toBe('OL');
    const steps = within(loop).getAllByRole('listitem');
    expect(steps.map((step) => step.textContent)).toEqual([
      'You give Cordless drill to Ben T.Not accepted yet',
      'Ben T. gives Camping tent to Cat U.Accepted',
      'Cat U. gives Acoustic guitar to youAccepted',
    ]);
    // Each item's picture, and the other members' names link to their pages.
    expect(steps[0]?.querySelector('img')).toHaveAttribute('src', '/photos/11-thumb.webp');
    expect(within(steps[1] as HTMLElement).getByRole('link', { name: 'Ben T.' })).toHaveAttribute(
      'href',
      '/members/ben',
    );
    expect(screen.getByText('2 of 3 accepted. Your answer is needed.')).toBeInTheDocument();
    expect(screen.getByText('2 days, 5 hours left')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Accept' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Decline' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Your hand-overs' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Conversation' })).not.toBeInTheDocument();
  });

  it('shows the server’s sentence when an accept is refused, and reads the circle again', async () => {
    let reads = 0;
    const api = stub(
      () => {
        reads += 1;
        return HttpResponse.json(
          reads === 1
            ? circle()
            : circle({ status: 'cancelled', expiresAt: null, allowedActions: [] }, [false, false, false]),
        );
      },
      http.post('/api/circles/5/accept', () =>
        errorJson(
          409,
          'An item in this circle is no longer available: the circle is dissolved.',
          'CIRCLE_ITEM_UNAVAILABLE',
        ),
      ),
    );
    renderWithProviders(<CircleDetail id={5} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Accept' }));
    expect(
      await screen.findByText('An item in this circle is no longer available: the circle is dissolved.'),
    ).toBeInTheDocument();
    expect(await screen.findByText('Canceled')).toBeInTheDocument();
    expect(screen.getByText(/This trade circle was cancelled/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Accept' })).not.toBeInTheDocument();
    expect(api.to('GET /api/circles/5')).toHaveLength(2);
  });

  it('accepts, and moves the focus to what the answer changed', async () => {
    let shown = circle();
    const api = stub(
      () => HttpResponse.json(shown),
      http.post('/api/circles/5/accept', () => {
        shown = circle({}, [true, false, false]);
        return HttpResponse.json(shown);
      }),
    );
    renderWithProviders(<CircleDetail id={5} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Accept' }));
    expect(await screen.findByText('1 of 3 accepted, you among them.')).toBeInTheDocument();
    expect(screen.getByText('Circle Accepted')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Accept' })).not.toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByText('1 of 3 accepted, you among them.').parentElement).toHaveFocus(),
    );
    expect(api.to('POST /api/circles/5/accept')).toHaveLength(1);
  });

  it('once everyone accepted: the two hand-overs and the circle’s conversation with everyone’s names', async () => {
    const api = stub(
      acceptedCircle(),
      ...handOverHandlers(41),
      http.get('/api/barter-requests/41', () => HttpResponse.json(giveBarter)),
      http.get('/api/barter-requests/41/messages', () =>
        HttpResponse.json([
          chatMessage(1, { barterRequestId: 41, fromUserId: 'ben', content: 'Saturday at ten?' }),
          chatMessage(2, { barterRequestId: 41, fromUserId: 'cat', content: 'Works for me' }),
          chatMessage(3, { barterRequestId: 41, fromUserId: 'me', fromMe: true, content: 'See you then' }),
        ]),
      ),
      http.post('/api/barter-requests/41/messages', async ({ request }) => {
        const body: unknown = await request.json();
        return HttpResponse.json(
          chatMessage(4, {
            barterRequestId: 41,
            fromUserId: 'me',
            fromMe: true,
            content: (body as { content: string }).content,
          }),
          { status: 201 },
        );
      }),
    );
    renderWithProviders(<CircleDetail id={5} />);
    expect(await screen.findByText('Accepted')).toBeInTheDocument();
    expect(screen.getByText(/Everyone accepted: the items are held/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Accept' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'You give Cordless drill to Ben T.' })).toHaveAttribute(
      'href',
      '/barters/41',
    );
    expect(screen.getByRole('link', { name: 'You get Acoustic guitar from Cat U.' })).toHaveAttribute(
      'href',
      '/barters/43',
    );

    const messages = await screen.findByRole('list', { name: 'Messages' });
    const rows = within(messages).getAllByRole('listitem');
    expect(rows.map((row) => row.querySelector('.font-semibold')?.textContent)).toEqual([
      'Ben T.',
      'Cat U.',
      'You',
    ]);
    expect(screen.getByText('Everyone in the trade circle reads this conversation.')).toBeInTheDocument();

    // Both hand-overs are planned and confirmed here, one tab each (ADR 081): the first is open.
    const tabs = screen.getByRole('tablist', { name: 'Plan and confirm a hand-over' });
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((tab) => tab.textContent),
    ).toEqual(['Give to Ben T.', 'Get from Cat U.']);
    // The hand-over's panel is a lazily loaded chunk (the CircleHandOver slot): its first load in a
    // test run is transformed on demand, which a loaded machine can stretch past the usual 5 s.
    expect(
      await screen.findByRole('region', { name: 'Hand-over plan' }, { timeout: 15_000 }),
    ).toBeInTheDocument();
    expect(await screen.findByText('K7M 4QX')).toBeInTheDocument();

    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'Bringing the drill');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await within(messages).findByText('Bringing the drill')).toBeInTheDocument();
    expect(await api.bodiesOf('POST /api/barter-requests/41/messages')).toEqual([
      { content: 'Bringing the drill' },
    ]);
  });

  it('opens the other hand-over by keyboard, its own plan and code (ADR 081)', async () => {
    const getBarter = barter({
      ...giveBarter,
      id: 43,
      threadId: 41,
      role: 'recipient',
      otherMember: { id: 'cat', displayName: 'Cat U.', profileImageUrl: null },
      offeredItems: [barterItem(13, { title: 'Acoustic guitar' })],
    });
    const api = stub(
      acceptedCircle(),
      ...handOverHandlers(41),
      ...handOverHandlers(43, 'P2R8TW'),
      http.get('/api/barter-requests/41', () => HttpResponse.json(giveBarter)),
      http.get('/api/barter-requests/43', () => HttpResponse.json(getBarter)),
      http.get('/api/barter-requests/41/messages', () => HttpResponse.json([])),
    );
    renderWithProviders(<CircleDetail id={5} />);
    const first = await screen.findByRole('tab', { name: 'Give to Ben T.' });
    // The panel's chunk loads lazily (see above).
    expect(await screen.findByText('K7M 4QX', {}, { timeout: 15_000 })).toBeInTheDocument();
    first.focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Get from Cat U.' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByText('P2R 8TW')).toBeInTheDocument();
    expect(screen.queryByText('K7M 4QX')).not.toBeInTheDocument();
    expect(screen.getAllByRole('region', { name: 'Hand-over plan' })).toHaveLength(1);
    expect(api.to('GET /api/barter-requests/43/hand-over-plan').length).toBeGreaterThan(0);
  });

  it('says which circle it replaces (ADR 081)', async () => {
    stub(circle({ replacesId: 4 }));
    renderWithProviders(<CircleDetail id={5} />);
    const earlier = await screen.findByRole('link', { name: 'an earlier circle' });
    expect(earlier).toHaveAttribute('href', '/circles/4');
    expect(earlier.closest('p')).toHaveTextContent(
      'This circle replaces an earlier circle that a member left: we found it for those who stayed.',
    );
  });

  it('says who declined', async () => {
    stub(
      circle({
        status: 'declined',
        expiresAt: null,
        allowedActions: [],
        closedBy: { id: 'cat', displayName: 'Cat U.', profileImageUrl: null },
      }),
    );
    renderWithProviders(<CircleDetail id={5} />);
    expect(
      await screen.findByText('Cat U. declined this trade circle. It dissolved for everyone.'),
    ).toBeVisible();
    expect(screen.getByText('Declined')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Decline' })).not.toBeInTheDocument();
  });

  it('says so when the circle is not the member’s, or does not exist', async () => {
    stub(() => errorJson(404, 'Circle not found', 'NOT_FOUND'));
    renderWithProviders(<CircleDetail id={5} />);
    expect(
      await screen.findByText('This trade circle does not exist, or you are not part of it.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'All Barters' })).toHaveAttribute('href', '/barters');
  });
});
