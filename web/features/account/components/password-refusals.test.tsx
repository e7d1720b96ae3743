import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type CurrentUser, PASSWORD_STRENGTH_MESSAGES } from '../../../../common/schemas/auth';
import { activateLocale } from '../../../i18n/i18n';
import { stubApi } from '../../../testing/api-stub';
import { jsonResponse, renderWithProviders } from '../../../testing/render';
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
  vi.unstubAllGlobals();
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
    const api = stubApi({
      'POST /api/auth/password-reset/confirm': () =>
        jsonResponse({ message: PASSWORD_STRENGTH_MESSAGES.simpleRepeat, code: 'PASSWORD_TOO_WEAK' }, 400),
    });
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
    expect(api.calls.filter((c) => c.path === '/api/auth/password-reset/confirm')).toHaveLength(1);
  });

  it('reset form in Spanish: the reason is shown in Spanish', async () => {
    await activateLocale('es');
    stubApi({
      'POST /api/auth/password-reset/confirm': () =>
        jsonResponse({ message: PASSWORD_STRENGTH_MESSAGES.containsEmail, code: 'PASSWORD_PERSONAL' }, 400),
    });
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
    stubApi({
      'PUT /api/account/password': () =>
        jsonResponse({ message: PASSWORD_STRENGTH_MESSAGES.containsName, code: 'PASSWORD_PERSONAL' }, 400),
      'GET /api/account/sessions': () => jsonResponse([]),
    });
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
