import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http, type RequestHandler } from 'msw';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { BARTER_ACTION_LABELS, type BarterAction } from '#common/barter-machine.ts';
import { MESSAGES_PAGE_SIZE } from '#common/constants.ts';
import { BARTER_MESSAGES, type Barter, type ChatMessage } from '#common/schemas/barters.ts';
import { AddItemProvider } from '#web/components/feature-slots.tsx';
import { barterKeys } from '#web/lib/query-keys.ts';
import { AnswerMarker, renderWithProviders } from '#web/testing/render.tsx';
import { errorJson, pagedJson, recordRequests, server } from '#web/testing/server.ts';
import { barter, barterItem, chatMessage } from '../testing/fixtures';
import { handOverCodeHandler } from '../testing/hand-over-code';
import { handOverPlanHandler } from '../testing/hand-over-plan';
import { BarterDetail } from './barter-detail';

const BASE = '/api/barter-requests/7';

/** The barter page's server: the barter, its messages, and whatever else the test adds. */
function stub(shown: Barter, messages: ChatMessage[] = [], ...handlers: RequestHandler[]) {
  server.use(
    // The test's own answers first: msw takes the first handler that matches.
    ...handlers,
    http.get(`${BASE}`, () => HttpResponse.json(shown)),
    http.get(`${BASE}/messages`, () => HttpResponse.json(messages)),
    // A negotiation with counters reads what was said with each proposal (ADR 076).
    http.get(`${BASE}/proposal-messages`, () => HttpResponse.json([])),
    http.post(`${BASE}/messages/read`, () => HttpResponse.json({ notifications: 0, messages: 0 })),
    // An accepted barter's page shows the viewer's hand-over code (issue 30).
    handOverCodeHandler(7),
    handOverPlanHandler(7),
    // A cancelled or completed barter's page reads whether a no-show report waits for an answer (ADR 079): none here.
    http.get(`${BASE}/attendance`, () =>
      HttpResponse.json({
        planVersion: null,
        canReport: false,
        myReport: null,
        aboutMe: null,
        confirm: { askMe: false, myConfirmedAt: null, otherAsked: false, otherConfirmedAt: null },
      }),
    ),
  );
  return recordRequests();
}

const renderPage = () => renderPageWith(null);

/** The page with something beside it (a render marker). */
const renderPageWith = (beside: ReactNode) =>
  renderWithProviders(
    <AddItemProvider>
      <BarterDetail id={7} />
      {beside}
    </AddItemProvider>,
  );

const actionButtons: BarterAction[] = ['accept', 'decline', 'counter', 'withdraw', 'cancel', 'confirm'];
const actionsRegion = () => screen.queryByRole('region', { name: 'Actions' });

describe('BarterDetail: actions', () => {
  it.each<[string, Partial<Barter>, BarterAction[]]>([
    [
      'a received proposal',
      { role: 'recipient', allowedActions: ['accept', 'decline', 'counter', 'message'] },
      ['accept', 'decline', 'counter'],
    ],
    [
      'a received proposal whose items are gone',
      { role: 'recipient', allowedActions: ['decline', 'counter', 'message'] },
      ['decline', 'counter'],
    ],
    ['a sent proposal', { role: 'sender', allowedActions: ['withdraw', 'message'] }, ['withdraw']],
    [
      'an accepted barter',
      { status: 'accepted', expiresAt: null, allowedActions: ['cancel', 'confirm', 'message'] },
      ['cancel', 'confirm'],
    ],
    [
      'an accepted barter I confirmed',
      { status: 'accepted', expiresAt: null, confirmedByMe: true, allowedActions: ['cancel', 'message'] },
      ['cancel'],
    ],
    [
      'a declined proposal',
      { status: 'declined', expiresAt: null, closedBy: 'me', allowedActions: ['message'] },
      [],
    ],
  ])('shows exactly the buttons the server allows: %s', async (_name, overrides, expected) => {
    stub(barter(overrides));
    renderPage();
    await screen.findByRole('heading', { name: /Barter with/ });
    for (const action of actionButtons) {
      const button = screen.queryByRole('button', { name: BARTER_ACTION_LABELS[action] });
      if (expected.includes(action)) expect(button, action).toBeInTheDocument();
      else expect(button, action).not.toBeInTheDocument();
    }
    expect(screen.queryByRole('form', { name: /^Rate / })).not.toBeInTheDocument();
    if (expected.length === 0) expect(actionsRegion()).not.toBeInTheDocument();
  });

  it('accepts, then shows the barter as the server answers it', async () => {
    const api = stub(
      barter(),
      [],
      http.post(`${BASE}/accept`, () =>
        HttpResponse.json(
          barter({ status: 'accepted', expiresAt: null, allowedActions: ['cancel', 'confirm', 'message'] }),
        ),
      ),
    );
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Accept' }));
    expect(await screen.findByRole('button', { name: 'Confirm completed' })).toBeInTheDocument();
    expect(screen.getByText(/both of you confirm/i)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Accept' })).not.toBeInTheDocument();
    expect(screen.getByText('Barter Accepted')).toBeInTheDocument();
    expect(api.to(`POST ${BASE}/accept`)).toHaveLength(1);
  });

  it('shows the server’s sentence when an action is refused', async () => {
    stub(
      barter(),
      [],
      http.post(`${BASE}/accept`, () =>
        errorJson(409, 'An item in this barter is no longer available.', 'BARTER_ITEM_UNAVAILABLE'),
      ),
    );
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Accept' }));
    expect(await screen.findByText('An item in this barter is no longer available.')).toBeInTheDocument();
  });

  it('asks for a reason before cancelling, and shows it after', async () => {
    const accepted = barter({
      status: 'accepted',
      expiresAt: null,
      allowedActions: ['cancel', 'confirm', 'message'],
    });
    const api = stub(
      accepted,
      [],
      http.post(`${BASE}/cancel`, async ({ request }) => {
        const body: unknown = await request.json();
        return HttpResponse.json({
          ...accepted,
          status: 'cancelled',
          allowedActions: ['message'],
          closedBy: 'me',
          closeReason: (body as { reason: string }).reason,
        });
      }),
    );
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel barter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this barter?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel barter' }));
    expect(await within(dialog).findByText(BARTER_MESSAGES.reasonRequired)).toBeInTheDocument();
    expect(api.to(`POST ${BASE}/cancel`)).toHaveLength(0);

    await userEvent.type(within(dialog).getByLabelText('Reason'), 'The bike got a flat tire');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel barter' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await api.bodiesOf(`POST ${BASE}/cancel`)).toEqual([{ reason: 'The bike got a flat tire' }]);
    expect(screen.getByText('You canceled this barter.')).toBeInTheDocument();
    expect(screen.getByText('The bike got a flat tire')).toBeInTheDocument();
    expect(actionsRegion()).not.toBeInTheDocument();
  });

  it('opens the counter dialog in counter mode', async () => {
    stub(
      barter(),
      [],
      http.get('/api/items/my', () => pagedJson([])),
      http.get('/api/members/ann/items', () => pagedJson([])),
    );
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Counter' }));
    expect(await screen.findByRole('dialog', { name: 'Counter Offer' })).toBeInTheDocument();
  });
});

describe('BarterDetail: state', () => {
  it('shows both sides, marks items that are gone, the expiry and the counter links', async () => {
    stub(
      barter({
        role: 'sender',
        allowedActions: ['withdraw', 'message'],
        offeredItems: [barterItem(11, { title: 'Mountain bike' })],
        requestedItems: [
          barterItem(21, { title: 'Cordless drill' }),
          barterItem(22, { title: 'Ladder', available: false }),
        ],
        counterOfId: 5,
        expiresAt: '2026-03-15T10:00:00.000Z',
      }),
    );
    renderPage();
    const mine = await screen.findByRole('region', { name: 'You give' });
    expect(within(mine).getByText('Mountain bike')).toBeInTheDocument();
    const theirs = screen.getByRole('region', { name: 'Ann R. gives' });
    const ladder = within(theirs).getByText('Ladder').closest('li') as HTMLElement;
    expect(within(ladder).getByText('No longer available')).toBeInTheDocument();
    const drill = within(theirs).getByText('Cordless drill').closest('li') as HTMLElement;
    expect(within(drill).queryByText('No longer available')).not.toBeInTheDocument();
    expect(screen.getByText(/Waiting for Ann R\. to answer/)).toBeInTheDocument();
    expect(screen.getByText(/expire after 14 days: this one on Mar 15, 2026/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See the earlier proposal' })).toHaveAttribute(
      'href',
      '/barters/5',
    );
    expect(screen.getByRole('link', { name: 'Ann R.' })).toHaveAttribute('href', '/members/ann');
  });

  it("links each item to its page (issue 31), and a deleted item's title to nothing", async () => {
    stub(
      barter({
        offeredItems: [barterItem(11, { title: 'Mountain bike' })],
        requestedItems: [
          barterItem(21, { title: 'Cordless drill' }),
          barterItem(0, { id: null, title: 'Old lamp' }),
        ],
      }),
    );
    renderPage();
    expect(await screen.findByRole('link', { name: 'Mountain bike' })).toHaveAttribute('href', '/items/11');
    expect(screen.getByRole('link', { name: 'Cordless drill' })).toHaveAttribute('href', '/items/21');
    expect(screen.getByText('Old lamp')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Old lamp' })).not.toBeInTheDocument();
  });

  it('links a countered proposal to the counter offer', async () => {
    stub(barter({ status: 'countered', expiresAt: null, counteredById: 9, allowedActions: ['message'] }));
    renderPage();
    expect(await screen.findByText('You answered this proposal with a counter offer.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See the counter offer' })).toHaveAttribute('href', '/barters/9');
  });

  it('says so when the barter is not there', async () => {
    server.use(http.get(`${BASE}`, () => errorJson(404, 'Barter not found', 'NOT_FOUND')));
    renderPage();
    expect(
      await screen.findByText('This barter does not exist, or it is not yours to see.'),
    ).toBeInTheDocument();
  });
});

describe('BarterDetail: rating', () => {
  it('takes 1-5 stars and a comment, then shows both ratings', async () => {
    const completed = barter({ status: 'completed', expiresAt: null, allowedActions: ['rate', 'message'] });
    const api = stub(
      completed,
      [],
      http.post(`${BASE}/rating`, async ({ request }) => {
        const body: unknown = await request.json();
        return HttpResponse.json({
          ...completed,
          allowedActions: ['message'],
          myRating: { stars: (body as { stars: number }).stars, comment: 'Lovely bike' },
          theirRating: { stars: 5, comment: null },
        });
      }),
    );
    renderPage();
    const form = await screen.findByRole('form', { name: 'Rate Ann R.' });
    const stars = within(form).getByRole('group', { name: 'How was your barter with Ann R.?' });
    expect(
      within(stars)
        .getAllByRole('radio')
        .map((radio) => radio.closest('label')?.textContent),
    ).toEqual(['1 star', '2 stars', '3 stars', '4 stars', '5 stars']);
    expect(screen.getByText('You have not rated this barter yet.')).toBeInTheDocument();

    await userEvent.click(within(form).getByRole('button', { name: 'Rate' }));
    expect(await within(form).findByText(BARTER_MESSAGES.starsRequired)).toBeInTheDocument();
    expect(api.to(`POST ${BASE}/rating`)).toHaveLength(0);

    await userEvent.click(within(stars).getByRole('radio', { name: '4 stars' }));
    await userEvent.type(within(form).getByLabelText('Comment (optional)'), 'Lovely bike');
    await userEvent.click(within(form).getByRole('button', { name: 'Rate' }));

    await waitFor(() => expect(screen.queryByRole('form', { name: 'Rate Ann R.' })).not.toBeInTheDocument());
    expect(await api.bodiesOf(`POST ${BASE}/rating`)).toEqual([{ stars: 4, comment: 'Lovely bike' }]);
    expect(screen.getByRole('img', { name: '4 out of 5 stars' })).toBeInTheDocument();
    expect(screen.getByText('Lovely bike')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: '5 out of 5 stars' })).toBeInTheDocument();
  });
});

describe('BarterDetail: conversation', () => {
  it('shows the proposal’s message at its place, then the messages oldest first, and marks them read', async () => {
    const api = stub(barter({ unreadMessages: 1 }), [
      chatMessage(1, { content: 'Hi! Still have the drill?' }),
      chatMessage(2, { fromMe: true, fromUserId: 'me', content: 'Yes, it is yours' }),
      chatMessage(3, { content: 'Great, Saturday?', isRead: false }),
    ]);
    const { queryClient } = renderPageWith(
      <AnswerMarker<ChatMessage[]>
        queryKey={barterKeys.messages(7)}
        when={(shown) => shown.every((message) => message.fromMe || message.isRead)}
      />,
    );
    const messages = await screen.findByRole('list', { name: 'Messages' });
    expect(
      within(messages)
        .getAllByRole('listitem')
        .map((item) => item.lastChild?.textContent),
    ).toEqual(['Would you swap?', 'Hi! Still have the drill?', 'Yes, it is yours', 'Great, Saturday?']);
    expect(screen.getByText('Would you swap?')).toBeInTheDocument();
    expect(screen.getByText("Ann R.'s message with the proposal")).toBeInTheDocument();
    await waitFor(() => expect(api.to(`POST ${BASE}/messages/read`)).toHaveLength(1));
    // Marked once: the page has drawn its copy read (the marker shows in the same commit, after which
    // a second mark would already have been asked for), so nothing asks again.
    await screen.findByTestId('answered');
    expect(queryClient.getMutationCache().getAll()).toHaveLength(1);
    expect(api.to(`POST ${BASE}/messages/read`)).toHaveLength(1);
  });

  it('does not mark anything read when nothing is unread', async () => {
    const api = stub(barter(), [chatMessage(1)]);
    const { queryClient } = renderPageWith(<AnswerMarker queryKey={barterKeys.messages(7)} />);
    await screen.findByRole('list', { name: 'Messages' });
    // The messages are drawn and their effects have run: a mark would have been asked for by now.
    await screen.findByTestId('answered');
    expect(queryClient.getMutationCache().getAll()).toHaveLength(0);
    expect(api.to(`POST ${BASE}/messages/read`)).toHaveLength(0);
  });

  it('sends with Enter, starts a new line with Shift+Enter, and adds the sent message once', async () => {
    let nextId = 10;
    const api = stub(
      barter(),
      [chatMessage(1)],
      http.post(`${BASE}/messages`, async ({ request }) => {
        const body: unknown = await request.json();
        return HttpResponse.json(
          chatMessage(nextId++, {
            fromMe: true,
            fromUserId: 'me',
            content: (body as { content: string }).content,
          }),
          { status: 201 },
        );
      }),
    );
    renderPage();
    const box = await screen.findByRole('textbox', { name: 'Message' });
    await screen.findByRole('list', { name: 'Messages' });

    // Empty: the shared message, nothing sent.
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(BARTER_MESSAGES.messageRequired)).toBeInTheDocument();

    await userEvent.type(box, 'Saturday at ten?{Shift>}{Enter}{/Shift}By the library');
    expect(api.to(`POST ${BASE}/messages`)).toHaveLength(0);
    await userEvent.type(box, '{Enter}');
    await waitFor(() => expect(box).toHaveValue(''));
    expect(await api.bodiesOf(`POST ${BASE}/messages`)).toEqual([
      { content: 'Saturday at ten?\nBy the library' },
    ]);
    const messages = screen.getByRole('list', { name: 'Messages' });
    // The proposal's message, the first one, and the sent one.
    expect(within(messages).getAllByRole('listitem')).toHaveLength(3);
    expect(within(messages).getAllByRole('listitem')[2]).toHaveTextContent(
      /^You,.*Saturday at ten\?\s*By the library$/,
    );
  });

  it('loads earlier messages in front of the ones shown', async () => {
    const newest = Array.from({ length: MESSAGES_PAGE_SIZE }, (_, index) => chatMessage(101 + index));
    const earlier = Array.from({ length: 20 }, (_, index) => chatMessage(81 + index));
    const api = stub(
      barter(),
      newest,
      http.get(`${BASE}/messages`, ({ request }) => {
        const query = new URL(request.url).searchParams;
        return HttpResponse.json(query.get('before') === '101' ? earlier : newest);
      }),
    );
    renderPage();
    const messages = await screen.findByRole('list', { name: 'Messages' });
    expect(within(messages).getAllByRole('listitem')).toHaveLength(MESSAGES_PAGE_SIZE);
    await userEvent.click(screen.getByRole('button', { name: 'Load earlier messages' }));
    // The start reached, the proposal's message (older than every message) comes first.
    await waitFor(() =>
      expect(within(messages).getAllByRole('listitem')).toHaveLength(MESSAGES_PAGE_SIZE + 21),
    );
    const items = within(messages).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Would you swap?');
    expect(items[1]).toHaveTextContent('Message 81');
    expect(items.at(-1)).toHaveTextContent(`Message ${100 + MESSAGES_PAGE_SIZE}`);
    // Fewer than a page came back: that was the start of the conversation.
    expect(screen.queryByRole('button', { name: 'Load earlier messages' })).not.toBeInTheDocument();
    expect(api.sent.filter((call) => call.path === `${BASE}/messages`).map((call) => call.url)).toEqual([
      `${BASE}/messages?limit=${MESSAGES_PAGE_SIZE}`,
      `${BASE}/messages?limit=${MESSAGES_PAGE_SIZE}&before=101`,
    ]);
  });
});
