import { screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '#web/testing/render.tsx';
import { server } from '#web/testing/server.ts';
import { LoginForm } from './login-form';

function site(googleSignIn: boolean) {
  return http.get('/api/site', () =>
    HttpResponse.json({
      publicUrl: 'http://localhost',
      supportEmail: 'support@example.com',
      legalEmail: 'legal@example.com',
      licensingEmail: 'licensing@example.com',
      demoLogin: true,
      googleSignIn,
      mapTiles: null,
    }),
  );
}

describe('Google sign-in shows only where it is set up (issue 28)', () => {
  it('the login form: no Google button, no divider, when it is not', async () => {
    server.use(site(false));
    renderWithProviders(<LoginForm />, { path: '/login' });
    // The site's settings have arrived (the demo login link depends on them too).
    expect(await screen.findByRole('link', { name: 'Try the demo' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Google/ })).not.toBeInTheDocument();
    expect(screen.queryByText(/^or$/i)).not.toBeInTheDocument();
  });

  it("the login form: the spec's one 'Or continue with Google' when it is", async () => {
    server.use(site(true));
    renderWithProviders(<LoginForm />, { path: '/login' });
    expect(await screen.findByRole('button', { name: 'Or continue with Google' })).toBeInTheDocument();
    expect(screen.queryByText(/^or$/i)).not.toBeInTheDocument();
  });
});
