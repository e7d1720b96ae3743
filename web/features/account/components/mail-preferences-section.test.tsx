import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '#web/testing/render.tsx';
import { recordRequests, server } from '#web/testing/server.ts';
import { MailPreferencesSection } from './mail-preferences-section';

// The e-mail switches (ADR 026): the proposals' one also stops hand-over reminders (ADR 078) and no-show
// reports (ADR 079), and says so.

const URL = '/api/account/mail-preferences';

describe('MailPreferencesSection', () => {
  it('names hand-over reminders and no-show reports on the proposals switch, and turns it off by keyboard', async () => {
    let saved = { proposals: true, messages: true };
    server.use(
      http.get(URL, () => HttpResponse.json(saved)),
      http.put(URL, async ({ request }) => {
        saved = (await request.json()) as typeof saved;
        return HttpResponse.json(saved);
      }),
    );
    const requests = recordRequests();
    renderWithProviders(<MailPreferencesSection />, { path: '/profile' });
    const proposals = await screen.findByRole('switch', {
      name: 'New proposals, counter-offers, hand-over reminders and no-show reports',
    });
    await screen.findByRole('switch', { name: 'New messages', checked: true });
    expect(proposals).toBeEnabled();
    proposals.focus();
    await userEvent.setup().keyboard(' ');
    expect(await requests.bodiesOf(`PUT ${URL}`)).toEqual([{ proposals: false, messages: true }]);
  });
});
