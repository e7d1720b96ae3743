import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Circle } from '../../../../common/schemas/circles';
import { errorResponse, type StubHandler, stubApi } from '../../../testing/api-stub';
import { jsonResponse, renderWithProviders } from '../../../testing/render';
import { barter, barterItem, chatMessage } from '../../barters/testing/fixtures';
import { acceptedCircle, circle } from '../testing/fixtures';
import { CircleDetail } from './circle-detail';

afterEach(() => vi.unstubAllGlobals());

function stub(shown: Circle | (() => Response), routes: Record<string, StubHandler> = {}) {
  return stubApi({
    'GET /api/circles/5': () => (typeof shown === 'function' ? shown() : jsonResponse(shown)),
    ...routes,
  });
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
        return jsonResponse(
          reads === 1
            ? circle()
            : circle({ status: 'cancelled', expiresAt: null, allowedActions: [] }, [false, false, false]),
        );
      },
      {
        'POST /api/circles/5/accept': () =>
          errorResponse(
            409,
            'An item in this circle is no longer available: the circle is dissolved.',
            'CIRCLE_ITEM_UNAVAILABLE',
          ),
      },
    );
    renderWithProviders(<CircleDetail id={5} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Accept' }));
    expect(
      await screen.findByText('An item in this circle is no longer available: the circle is dissolved.'),
    ).toBeInTheDocument();
    expect(await screen.findByText('Canceled')).toBeInTheDocument();
    expect(screen.getByText(/This trade circle was cancelled/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Accept' })).not.toBeInTheDocument();
    expect(api.callsTo('GET /api/circles/5')).toHaveLength(2);
  });

  it('accepts, and moves the focus to what the answer changed', async () => {
    let shown = circle();
    const api = stub(() => jsonResponse(shown), {
      'POST /api/circles/5/accept': () => {
        shown = circle({}, [true, false, false]);
        return jsonResponse(shown);
      },
    });
    renderWithProviders(<CircleDetail id={5} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Accept' }));
    expect(await screen.findByText('1 of 3 accepted, you among them.')).toBeInTheDocument();
    expect(screen.getByText('Circle Accepted')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Accept' })).not.toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByText('1 of 3 accepted, you among them.').parentElement).toHaveFocus(),
    );
    expect(api.callsTo('POST /api/circles/5/accept')).toHaveLength(1);
  });

  it('once everyone accepted: the two hand-overs and the circle’s conversation with everyone’s names', async () => {
    const api = stub(acceptedCircle(), {
      'GET /api/barter-requests/41': () => jsonResponse(giveBarter),
      'GET /api/barter-requests/41/messages': () =>
        jsonResponse([
          chatMessage(1, { barterRequestId: 41, fromUserId: 'ben', content: 'Saturday at ten?' }),
          chatMessage(2, { barterRequestId: 41, fromUserId: 'cat', content: 'Works for me' }),
          chatMessage(3, { barterRequestId: 41, fromUserId: 'me', fromMe: true, content: 'See you then' }),
        ]),
      'POST /api/barter-requests/41/messages': ({ body }) =>
        jsonResponse(
          chatMessage(4, {
            barterRequestId: 41,
            fromUserId: 'me',
            fromMe: true,
            content: (body as { content: string }).content,
          }),
          201,
        ),
    });
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

    await userEvent.type(screen.getByRole('textbox', { name: 'Message' }), 'Bringing the drill');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await within(messages).findByText('Bringing the drill')).toBeInTheDocument();
    expect(api.callsTo('POST /api/barter-requests/41/messages').map((call) => call.body)).toEqual([
      { content: 'Bringing the drill' },
    ]);
    expect(api.unhandled).toEqual([]);
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
    stub(() => errorResponse(404, 'Circle not found', 'NOT_FOUND'));
    renderWithProviders(<CircleDetail id={5} />);
    expect(
      await screen.findByText('This trade circle does not exist, or you are not part of it.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'All Barters' })).toHaveAttribute('href', '/barters');
  });
});
