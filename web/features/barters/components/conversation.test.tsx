import { screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { ProposalMessage } from '#common/schemas/conversations.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { recordRequests, server } from '#web/testing/server.ts';
import { barter, chatMessage } from '../testing/fixtures';
import { Conversation } from './conversation';

const at = (minute: number) => new Date(Date.UTC(2026, 2, 1, 10, minute)).toISOString();

describe('Conversation: a counter continues it (ADR 076)', () => {
  it('keeps what was said with the proposal and each counter, at its place among the messages', async () => {
    const said: ProposalMessage[] = [
      { barterId: 7, isCounter: false, fromMe: false, content: 'My bike for your drill?', createdAt: at(0) },
      {
        barterId: 9,
        isCounter: true,
        fromMe: true,
        content: 'I would rather have the chair.',
        createdAt: at(20),
      },
    ];
    server.use(
      http.get('/api/barter-requests/9/messages', () =>
        HttpResponse.json([chatMessage(1, { content: 'Is the drill still there?', createdAt: at(10) })]),
      ),
      http.get('/api/barter-requests/9/proposal-messages', () => HttpResponse.json(said)),
    );
    renderWithProviders(
      <Conversation
        barter={barter({
          id: 9,
          threadId: 7,
          counterOfId: 7,
          role: 'sender',
          message: 'I would rather have the chair.',
          createdAt: at(20),
        })}
      />,
    );
    const list = await screen.findByRole('list', { name: 'Messages' });
    await within(list).findByText('My bike for your drill?');
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.lastChild?.textContent)).toEqual([
      'My bike for your drill?',
      'Is the drill still there?',
      'I would rather have the chair.',
    ]);
    expect(
      within(items[0] as HTMLElement).getByText("Ann R.'s message with the proposal"),
    ).toBeInTheDocument();
    expect(
      within(items[2] as HTMLElement).getByText('Your message with the counter offer'),
    ).toBeInTheDocument();
  });

  it('asks nothing more for a proposal without counters: its own message is the one said', async () => {
    server.use(http.get('/api/barter-requests/7/messages', () => HttpResponse.json([])));
    const api = recordRequests();
    renderWithProviders(<Conversation barter={barter({ message: 'Would you swap?' })} />);
    const list = await screen.findByRole('list', { name: 'Messages' });
    expect(within(list).getByText('Would you swap?')).toBeInTheDocument();
    expect(
      screen.getByText('No messages yet. Say hello and agree where and when to meet.'),
    ).toBeInTheDocument();
    expect(api.sent.map((call) => call.path)).toEqual(['/api/barter-requests/7/messages']);
  });
});
