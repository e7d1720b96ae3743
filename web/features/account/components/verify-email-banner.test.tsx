import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '#common/schemas/auth.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { errorJson, recordRequests, server } from '#web/testing/server.ts';
import { VerifyEmailBanner } from './verify-email-banner';

const UNCONFIRMED: CurrentUser = {
  id: 'u1',
  firstName: 'Rosa',
  lastName: 'Parks',
  email: 'rosa@example.com',
  location: null,
  latitude: null,
  longitude: null,
  maxTravelDistance: 25,
  profileImageUrl: null,
  isDemo: false,
  emailVerified: false,
  hasPassword: true,
  role: 'member',
  suspendedUntil: null,
};

/** The banner above every member screen; "Send it again" loads its code on the click (ADR 024). */
describe('VerifyEmailBanner', () => {
  it('sends the link again and says so', async () => {
    server.use(
      http.get('/api/auth/user', () => HttpResponse.json(UNCONFIRMED)),
      http.post('/api/account/verify-email/resend', () =>
        HttpResponse.json({ message: 'We sent a new link to rosa@example.com.' }),
      ),
    );
    const api = recordRequests();
    renderWithProviders(<VerifyEmailBanner />);
    const banner = await screen.findByRole('region', { name: 'Confirm your email' });
    expect(banner).toHaveTextContent('we sent a link to rosa@example.com');

    await userEvent.click(screen.getByRole('button', { name: 'Send it again' }));
    expect(await screen.findByText('Link sent')).toBeInTheDocument();
    expect(api.to('POST /api/account/verify-email/resend')).toHaveLength(1);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send it again' })).toBeEnabled());
  });

  it("says when the link could not be sent, with the server's reason", async () => {
    server.use(
      http.get('/api/auth/user', () => HttpResponse.json(UNCONFIRMED)),
      http.post('/api/account/verify-email/resend', () =>
        errorJson(429, 'Please wait a minute before asking again.'),
      ),
    );
    renderWithProviders(<VerifyEmailBanner />);
    await userEvent.click(await screen.findByRole('button', { name: 'Send it again' }));
    expect(await screen.findByText('Could not send the link')).toBeInTheDocument();
    expect(screen.getByText('Please wait a minute before asking again.')).toBeInTheDocument();
  });
});
