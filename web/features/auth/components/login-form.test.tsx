import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../testing/api-stub';
import { jsonResponse, renderWithProviders } from '../../../testing/render';
import { LandingPage } from '../../landing/components/landing-page';
import { LoginForm } from './login-form';

afterEach(() => vi.unstubAllGlobals());

function site(googleSignIn: boolean) {
  return {
    publicUrl: 'http://localhost',
    supportEmail: 'support@example.com',
    legalEmail: 'legal@example.com',
    licensingEmail: 'licensing@example.com',
    demoLogin: true,
    googleSignIn,
    mapTiles: null,
  };
}

describe('Google sign-in shows only where it is set up (issue 28)', () => {
  it('the login form: no Google button, no divider, when it is not', async () => {
    stubApi({ 'GET /api/site': () => jsonResponse(site(false)) });
    renderWithProviders(<LoginForm />, { path: '/login' });
    // The site's settings have arrived (the demo login link depends on them too).
    expect(await screen.findByRole('link', { name: 'Try the demo' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Google/ })).not.toBeInTheDocument();
    expect(screen.queryByText(/^or$/i)).not.toBeInTheDocument();
  });

  it("the login form: the spec's one 'Or continue with Google' when it is", async () => {
    stubApi({ 'GET /api/site': () => jsonResponse(site(true)) });
    renderWithProviders(<LoginForm />, { path: '/login' });
    expect(await screen.findByRole('button', { name: 'Or continue with Google' })).toBeInTheDocument();
    expect(screen.queryByText(/^or$/i)).not.toBeInTheDocument();
  });

  it('the landing page: neither Sign In with Google when it is not, both when it is', async () => {
    stubApi({ 'GET /api/site': () => jsonResponse(site(false)) });
    const off = renderWithProviders(<LandingPage />);
    expect(await screen.findByRole('link', { name: 'support@example.com' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Sign In with Google' })).not.toBeInTheDocument();
    off.unmount();
    vi.unstubAllGlobals();

    stubApi({ 'GET /api/site': () => jsonResponse(site(true)) });
    renderWithProviders(<LandingPage />);
    const google = await screen.findAllByRole('link', { name: 'Sign In with Google' });
    expect(google).toHaveLength(2);
    for (const link of google) expect(link).toHaveAttribute('href', '/api/auth/google');
  });
});
