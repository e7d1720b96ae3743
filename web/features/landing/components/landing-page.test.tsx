import { screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '#web/testing/render.tsx';
import { server } from '#web/testing/server.ts';
import { LandingPage } from './landing-page';

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
  it('the landing page: neither Sign In with Google when it is not, both when it is', async () => {
    server.use(site(false));
    const off = renderWithProviders(<LandingPage />);
    expect(await screen.findByRole('link', { name: 'support@example.com' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Sign In with Google' })).not.toBeInTheDocument();
    off.unmount();

    server.use(site(true));
    renderWithProviders(<LandingPage />);
    const google = await screen.findAllByRole('link', { name: 'Sign In with Google' });
    expect(google).toHaveLength(2);
    for (const link of google) expect(link).toHaveAttribute('href', '/api/auth/google');
  });
});
