import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGES, PASSWORD_STRENGTH_MESSAGES } from '#common/schemas/auth.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { errorJson, recordRequests, server } from '#web/testing/server.ts';
import { RegisterForm } from './register-form';

/** The server refuses the registration with this answer; nothing else is asked. */
function refuseRegistration(status: number, message: string, code: string) {
  server.use(http.post('/api/auth/register', () => errorJson(status, message, code)));
  return recordRequests();
}

/** Fill the form and submit it with this password. */
async function submitWith(password: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('First Name'), 'Rosa');
  await user.type(screen.getByLabelText('Email'), 'rosa@example.com');
  await user.type(screen.getByLabelText('Password', { selector: 'input' }), password);
  await user.type(screen.getByLabelText('Confirm Password'), password);
  await user.click(screen.getByRole('button', { name: 'Create Account' }));
}

describe('RegisterForm', () => {
  it("shows the server's too-common answer under the password field", async () => {
    const api = refuseRegistration(400, AUTH_MESSAGES.passwordTooCommon, 'PASSWORD_TOO_COMMON');
    renderWithProviders(<RegisterForm />, { path: '/register' });

    await submitWith('password123');

    const password = screen.getByLabelText('Password', { selector: 'input' });
    const message = await screen.findByText(AUTH_MESSAGES.passwordTooCommon, { selector: 'p[role="alert"]' });
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveAttribute('aria-describedby', message.id);
    expect(password).toHaveFocus();
    expect(screen.getByLabelText('Confirm Password')).not.toHaveAttribute('aria-invalid');
    expect(await screen.findByText('Registration Failed', { selector: 'li *' })).toBeInTheDocument();
    expect(api.sent.map((call) => `${call.method} ${call.path}`)).toEqual(['POST /api/auth/register']);
  });

  it.each([
    [PASSWORD_STRENGTH_MESSAGES.userInputs, 'PASSWORD_TOO_WEAK', 'Barter123'],
    [PASSWORD_STRENGTH_MESSAGES.containsEmail, 'PASSWORD_PERSONAL', 'rosa@example.com'],
  ])(
    "shows the server's reason for a weak password under the password field: %s",
    async (reason, code, typed) => {
      refuseRegistration(400, reason, code);
      renderWithProviders(<RegisterForm />, { path: '/register' });

      await submitWith(typed);

      const password = screen.getByLabelText('Password', { selector: 'input' });
      const message = await screen.findByText(reason, { selector: 'p[role="alert"]' });
      expect(password).toHaveAttribute('aria-invalid', 'true');
      expect(password).toHaveAttribute('aria-describedby', message.id);
      expect(password).toHaveFocus();
    },
  );

  it('keeps the spec message for other failures', async () => {
    refuseRegistration(500, 'Something went wrong on our side.', 'INTERNAL_ERROR');
    renderWithProviders(<RegisterForm />, { path: '/register' });

    await submitWith('maple lantern 42');

    expect(await screen.findByText('Unable to create account. Please try again.')).toBeInTheDocument();
    expect(screen.getByLabelText('Password', { selector: 'input' })).not.toHaveAttribute('aria-invalid');
  });
});
