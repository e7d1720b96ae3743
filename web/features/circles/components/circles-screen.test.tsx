import { screen, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '#web/testing/render.tsx';
import { pagedJson, server } from '#web/testing/server.ts';
import { acceptedCircle, circle } from '../testing/fixtures';
import { CirclesScreen } from './circles-screen';

describe('CirclesScreen', () => {
  it('lists the circles waiting for answers, then past ones, each opening its page', async () => {
    server.use(
      http.get('/api/circles', ({ request }) => {
        const query = new URL(request.url).searchParams;
        return pagedJson(
          query.get('box') === 'past'
            ? [
                acceptedCircle({ id: 4 }),
                circle({
                  id: 3,
                  status: 'declined',
                  expiresAt: null,
                  allowedActions: [],
                  closedBy: { id: 'ben', displayName: 'Ben T.', profileImageUrl: null },
                }),
              ]
            : [circle()],
        );
      }),
    );
    renderWithProviders(<CirclesScreen />);
    expect(screen.getByRole('heading', { name: 'Trade circles', level: 1 })).toBeInTheDocument();
    const waiting = screen.getByRole('region', { name: 'Waiting for answers' });
    expect(
      await within(waiting).findByRole('article', { name: 'Trade circle with Ben T. and Cat U.' }),
    ).toBeInTheDocument();

    const past = within(screen.getByRole('region', { name: 'Past trade circles' }));
    const rows = await past.findAllByRole('listitem');
    expect(rows).toHaveLength(2);
    const [accepted, declined] = rows as [HTMLElement, HTMLElement];
    expect(
      within(accepted).getByRole('link', { name: 'Trade circle with Ben T. and Cat U.' }),
    ).toHaveAttribute('href', '/circles/4');
    expect(within(accepted).getByText('Accepted')).toBeInTheDocument();
    expect(within(declined).getByText('Declined')).toBeInTheDocument();
    expect(
      within(declined).getByText(
        'You give your Cordless drill to Ben T.; you get Acoustic guitar from Cat U.',
      ),
    ).toBeInTheDocument();
  });

  it('says so when there are none', async () => {
    server.use(http.get('/api/circles', () => pagedJson([])));
    renderWithProviders(<CirclesScreen />);
    expect(await screen.findByText('No trade circles are waiting for answers.')).toBeInTheDocument();
    expect(
      await screen.findByText(
        'Accepted, completed, declined, expired and canceled trade circles will show here.',
      ),
    ).toBeInTheDocument();
  });
});
