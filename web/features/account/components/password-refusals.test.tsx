import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { type CurrentUser, PASSWORD_STRENGTH_MESSAGES } from '#common/schemas/auth.ts';
import { activateLocale } from '#web/i18n/i18n.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { errorJson, recordRequests, server } from '#web/testing/server.ts';
import { AccountTab } from './account-tab';
import { ResetPasswordForm } from './reset-password-form';

const USER: CurrentUser = {
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
  emailVerified: true,
  hasPassword: true,
  role: 'member',
  suspendedUntil: null,
};

const TOKEN = 'A'.repeat(43);

afterEach(async () => {
  await activateLocale('en');
});

async function typeNewPassword(label: string, confirmLabel: string, password: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText(label, { selector: 'input' }), password);
  await user.type(screen.getByLabelText(confirmLabel, { selector: 'input' }), password);
  return user;
}

/** The server's reason for a refused new password shows on the password field (ADR 055). */
describe('a refused new password', () => {
  it('reset form: the reason is on the new password field, which gets the focus', async () => {
    server.use(
      http.post('/api/auth/password-reset/confirm', () =>
        errorJson(400, PASSWORD_STRENGTH_MESSAGES.simpleRepeat, 'PASSWORD_TOO_WEAK'),
      ),
    );
    const api = recordRequests();
    renderWithProviders(<ResetPasswordForm />, { path: `/reset-password?token=${TOKEN}` });
    const user = await typeNewPassword('New Password', 'Confirm New Password', 'aaaaaa');
    await user.click(screen.getByRole('button', { name: 'Set New Password' }));

    const field = screen.getByLabelText('New Password', { selector: 'input' });
    const message = await screen.findByText(PASSWORD_STRENGTH_MESSAGES.simpleRepeat, {
      selector: 'p[role="alert"]',
    });
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAttribute('aria-describedby', message.id);
    expect(field).toHaveFocus();
    expect(api.to('POST /api/auth/password-reset/confirm')).toHaveLength(1);
  });

  it('reset form in Spanish: the reason is shown in Spanish', async () => {
    await activateLocale('es');
    server.use(
      http.post('/api/auth/password-reset/confirm', () =>
        errorJson(400, PASSWORD_STRENGTH_MESSAGES.containsEmail, 'PASSWORD_PERSONAL'),
      ),
    );
    renderWithProviders(<ResetPasswordForm />, { path: `/reset-password?token=${TOKEN}` });
    const user = await typeNewPassword('Nueva contraseña', 'Confirmar nueva contraseña', 'rosa@example.com');
    await user.click(screen.getByRole('button', { name: 'Establecer nueva contraseña' }));

    expect(
      await screen.findByText('Tu contraseña no puede contener tu dirección de correo electrónico.', {
        selector: 'p[role="alert"]',
      }),
    ).toBeInTheDocument();
  });

  it('password change: the reason is on the new password field, not the current one', async () => {
    server.use(
      http.put('/api/account/password', () =>
        errorJson(400, PASSWORD_STRENGTH_MESSAGES.containsName, 'PASSWORD_PERSONAL'),
      ),
      // The rest of the account tab's reads: nothing the test looks at.
      http.get('/api/account/sessions', () => HttpResponse.json([])),
      http.get('/api/account/notification-channels', () =>
        HttpResponse.json({
          proposals: 'digest',
          messages: 'digest',
          barters: 'push',
          circles: 'push',
          listing_alerts: 'push',
          listings: 'push',
          moderation: 'push',
        }),
      ),
      http.get('/api/account/blocks', () => HttpResponse.json([])),
      http.get('/api/saved-searches', () => HttpResponse.json([])),
      http.get('/api/push/subscriptions', () => HttpResponse.json([])),
    );
    renderWithProviders(<AccountTab user={USER} />, { path: '/profile/account' });
    const heading = screen.getByRole('heading', { name: 'Password', level: 2 });
    const card = within(heading.parentElement as HTMLElement);
    const user = userEvent.setup();
    await user.type(card.getByLabelText('Current Password', { selector: 'input' }), 'tidal walnut 97');
    await user.type(card.getByLabelText('New Password', { selector: 'input' }), 'rosa parks 1955');
    await user.type(card.getByLabelText('Confirm New Password', { selector: 'input' }), 'rosa parks 1955');
    await user.click(card.getByRole('button', { name: 'Change Password' }));

    const field = card.getByLabelText('New Password', { selector: 'input' });
    const message = await card.findByText(PASSWORD_STRENGTH_MESSAGES.containsName, {
      selector: 'p[role="alert"]',
    });
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAttribute('aria-describedby', message.id);
    expect(field).toHaveFocus();
    expect(card.getByLabelText('Current Password', { selector: 'input' })).not.toHaveAttribute(
      'aria-invalid',
    );
  });
});
