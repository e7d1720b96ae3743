import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEMO_ACCOUNT_NOTE, DemoAccountNote } from '../../../components/demo-account-note';
import { jsonResponse, renderWithProviders } from '../../../testing/render';
import { DemoLoginForm } from './demo-login-form';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('DemoLoginForm', () => {
  it("keeps the spec's note and says the demo account is the visitor's own", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ demoLogin: true, google: false })),
    );
    renderWithProviders(<DemoLoginForm />, { path: '/demo-login' });
    expect(
      screen.getByText('This is a demo login for testing. In production, real authentication would be used.'),
    ).toBeInTheDocument();
    expect(screen.getByText(DEMO_ACCOUNT_NOTE)).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Enter' })).toBeInTheDocument();
  });
});

describe('DemoAccountNote', () => {
  it('marks a demo account', () => {
    render(<DemoAccountNote />);
    expect(screen.getByText(/^Demo account/)).toBeInTheDocument();
  });
});
