import { render, screen } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNT_NOTE, DemoAccountNote } from '#web/components/demo-account-note.tsx';
import { siteKeys } from '#web/lib/query-keys.ts';
import { AnswerMarker, renderWithProviders } from '#web/testing/render.tsx';
import { server } from '#web/testing/server.ts';
import { DemoLoginForm } from './demo-login-form';

describe('DemoLoginForm', () => {
  it("keeps the spec's note and says the demo account is the visitor's own", async () => {
    server.use(
      http.get('/api/site', () =>
        HttpResponse.json({
          publicUrl: 'http://localhost',
          supportEmail: 'support@example.com',
          legalEmail: 'legal@example.com',
          licensingEmail: 'licensing@example.com',
          demoLogin: true,
          googleSignIn: false,
          mapTiles: null,
        }),
      ),
    );
    renderWithProviders(
      <>
        <DemoLoginForm />
        <AnswerMarker queryKey={siteKeys.info} />
      </>,
      { path: '/demo-login' },
    );
    expect(
      screen.getByText('This is a demo login for testing. In production, real authentication would be used.'),
    ).toBeInTheDocument();
    expect(screen.getByText(DEMO_ACCOUNT_NOTE)).toBeInTheDocument();
    // The site's settings have arrived (demo login on): the form stays, with its button.
    await screen.findByTestId('answered');
    expect(screen.getByRole('button', { name: 'Enter' })).toBeInTheDocument();
  });
});

describe('DemoAccountNote', () => {
  it('marks a demo account', () => {
    render(<DemoAccountNote />);
    expect(screen.getByText(/^Demo account/)).toBeInTheDocument();
  });
});
