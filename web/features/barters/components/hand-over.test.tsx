import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Barter } from '#common/schemas/barters.ts';
import { acceptedCircle } from '#web/testing/fixtures/circles.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { pagedJson, server } from '#web/testing/server.ts';
import { barter, barterItem, chatMessage } from '../testing/fixtures';
import { handOverCodeHandler } from '../testing/hand-over-code';
import { handOverPlanHandler } from '../testing/hand-over-plan';
import { BarterDetail } from './barter-detail';
import { BarterList } from './barter-list';

/**
 * A trade circle's hand-over (issue 16) on the barter screens: one item one way, the circle it
 * belongs to, and the circle's one conversation with everyone's names.
 */

const CAT = { id: 'cat', displayName: 'Cat U.', profileImageUrl: null };
const BEN = { id: 'ben', displayName: 'Ben T.', profileImageUrl: null };

/** The viewer gets Cat's guitar in barter 43 (the circle of the circle fixtures). */
const getting = (overrides: Partial<Barter> = {}) =>
  barter({
    id: 43,
    threadId: 41,
    status: 'accepted',
    role: 'recipient',
    otherMember: CAT,
    offeredItems: [barterItem(13, { title: 'Acoustic guitar' })],
    requestedItems: [],
    message: null,
    expiresAt: null,
    allowedActions: ['cancel', 'confirm', 'message'],
    circleId: 5,
    ...overrides,
  });

describe('a hand-over’s page', () => {
  it('belongs to its circle, reads one way, and names everyone in the conversation', async () => {
    server.use(
      http.get('/api/barter-requests/43', () => HttpResponse.json(getting())),
      handOverCodeHandler(43),
      handOverPlanHandler(43),
      http.get('/api/circles/5', () => HttpResponse.json(acceptedCircle())),
      http.get('/api/barter-requests/43/messages', () =>
        HttpResponse.json([
          chatMessage(1, { barterRequestId: 41, fromUserId: 'ben', content: 'Saturday at ten?' }),
          chatMessage(2, { barterRequestId: 41, fromUserId: 'cat', content: 'Works for me' }),
        ]),
      ),
    );
    renderWithProviders(<BarterDetail id={43} />);
    expect(await screen.findByRole('heading', { name: 'Barter with Cat U.', level: 1 })).toBeInTheDocument();
    expect(screen.getByText(/^A hand-over of a trade circle, since/)).toBeInTheDocument();

    const banner = screen.getByRole('region', { name: 'Trade circle' });
    expect(banner).toHaveTextContent('Part of a trade circle.');
    expect(
      await within(banner).findByText(
        /You give Cordless drill to Ben T\., Ben T\. gives Camping tent to Cat U\., Cat U\. gives Acoustic guitar to you\./,
      ),
    ).toBeInTheDocument();
    expect(within(banner).getByRole('link', { name: 'See the whole circle' })).toHaveAttribute(
      'href',
      '/circles/5',
    );

    // One side, read as a sentence; no empty "Cat U. gives" box.
    expect(screen.getByRole('heading', { name: 'You get Acoustic guitar from Cat U.' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'You give' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Cat U. gives' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'You give Cordless drill to Ben T.' })).toHaveAttribute(
      'href',
      '/barters/41',
    );

    const rows = within(await screen.findByRole('list', { name: 'Messages' })).getAllByRole('listitem');
    expect(rows.map((row) => row.querySelector('.font-semibold')?.textContent)).toEqual(['Ben T.', 'Cat U.']);
  });

  it('says that cancelling one hand-over cancels the whole circle', async () => {
    server.use(
      http.get('/api/barter-requests/43', () => HttpResponse.json(getting())),
      handOverCodeHandler(43),
      handOverPlanHandler(43),
      http.get('/api/circles/5', () => HttpResponse.json(acceptedCircle())),
      http.get('/api/barter-requests/43/messages', () => HttpResponse.json([])),
    );
    renderWithProviders(<BarterDetail id={43} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel barter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this barter?' });
    expect(dialog).toHaveTextContent('This cancels the whole trade circle');
  });

  it('says why when a member of the circle missed a hand-over (cancelled by nobody, ADR 081)', async () => {
    server.use(
      http.get('/api/barter-requests/43', () =>
        HttpResponse.json(getting({ status: 'cancelled', closedBy: null, allowedActions: ['message'] })),
      ),
      http.get('/api/barter-requests/43/attendance', () =>
        HttpResponse.json({
          planVersion: 1,
          canReport: false,
          myReport: null,
          aboutMe: null,
          confirm: { askMe: false, myConfirmedAt: null, otherAsked: false, otherConfirmedAt: null },
        }),
      ),
      http.get('/api/circles/5', () => HttpResponse.json(acceptedCircle())),
      http.get('/api/barter-requests/43/messages', () => HttpResponse.json([])),
    );
    renderWithProviders(<BarterDetail id={43} />);
    expect(
      await screen.findByText(
        /^This hand-over was cancelled because a member of the circle missed a hand-over\./,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText('Cat U. canceled this barter.')).not.toBeInTheDocument();
  });

  it('reads one way in the lists too', async () => {
    server.use(
      http.get('/api/barter-requests', () =>
        pagedJson([
          barter({
            id: 41,
            status: 'accepted',
            role: 'sender',
            otherMember: BEN,
            offeredItems: [barterItem(11, { title: 'Cordless drill' })],
            requestedItems: [],
            circleId: 5,
          }),
          getting(),
        ]),
      ),
    );
    renderWithProviders(<BarterList box="active" />);
    const [giving, gettingRow] = (await screen.findAllByRole('listitem')) as [HTMLElement, HTMLElement];
    expect(within(giving).getByRole('link', { name: 'You give: Cordless drill' })).toHaveAttribute(
      'href',
      '/barters/41',
    );
    expect(within(giving).getByText('Trade circle')).toBeInTheDocument();
    expect(within(gettingRow).getByRole('link', { name: 'You get: Acoustic guitar' })).toHaveAttribute(
      'href',
      '/barters/43',
    );
  });
});
