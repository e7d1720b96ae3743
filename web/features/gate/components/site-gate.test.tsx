import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../../testing/render';
import { SiteGate } from './site-gate';

afterEach(() => vi.unstubAllGlobals());

describe('SiteGate', () => {
  it('has a masked, required, autofocused field and a button disabled while it is blank', async () => {
    renderWithProviders(<SiteGate onGranted={() => {}} />);
    const field = screen.getByLabelText('Site password');
    expect(field).toHaveAttribute('type', 'password');
    expect(field).toBeRequired();
    expect(field).toHaveFocus();
    const button = screen.getByRole('button', { name: 'Enter Site' });
    expect(button).toBeDisabled();
    await userEvent.type(field, '   ');
    expect(button).toBeDisabled();
    await userEvent.type(field, 'x');
    expect(button).toBeEnabled();
  });

  it('shows Verifying... while checking, then grants', async () => {
    let answer: (response: Response) => void = () => {};
    const fetchMock = vi.fn(() => new Promise<Response>((resolve) => (answer = resolve)));
    vi.stubGlobal('fetch', fetchMock);
    const onGranted = vi.fn();
    renderWithProviders(<SiteGate onGranted={onGranted} />);
    await userEvent.type(screen.getByLabelText('Site password'), 'barter{Enter}');
    expect(await screen.findByRole('button', { name: 'Verifying...' })).toBeDisabled();
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/verify-password',
      expect.objectContaining({ method: 'POST' }),
    );
    answer(jsonResponse({ ok: true }));
    await waitFor(() => expect(onGranted).toHaveBeenCalledOnce());
  });

  it('a wrong password clears the field and says Access Denied', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse({ message: 'Incorrect password.', code: 'INCORRECT_PASSWORD' }, 401)),
    );
    const onGranted = vi.fn();
    renderWithProviders(<SiteGate onGranted={onGranted} />);
    const field = screen.getByLabelText('Site password');
    await userEvent.type(field, 'nope{Enter}');
    expect(await screen.findByText('Access Denied')).toBeInTheDocument();
    expect(screen.getByText('Incorrect password. Please try again.')).toBeInTheDocument();
    expect(field).toHaveValue('');
    expect(onGranted).not.toHaveBeenCalled();
  });

  it('a network failure keeps the field and says it could not verify', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    renderWithProviders(<SiteGate onGranted={() => {}} />);
    const field = screen.getByLabelText('Site password');
    await userEvent.type(field, 'barter{Enter}');
    expect(await screen.findByText('Unable to verify password. Please try again.')).toBeInTheDocument();
    expect(field).toHaveValue('barter');
  });

  it('a refusal goes as soon as the member tries again (issue 28)', async () => {
    let answer: (response: Response) => void = () => {};
    let attempts = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        ++attempts === 1
          ? jsonResponse({ message: 'Incorrect password.', code: 'INCORRECT_PASSWORD' }, 401)
          : new Promise<Response>((resolve) => (answer = resolve)),
      ),
    );
    const onGranted = vi.fn();
    renderWithProviders(<SiteGate onGranted={onGranted} />);
    const field = screen.getByLabelText('Site password');
    await userEvent.type(field, 'nope{Enter}');
    expect(await screen.findByText('Access Denied')).toBeInTheDocument();
    await userEvent.type(field, 'barter{Enter}');
    // Gone at once (a toast would otherwise stay its 5 s, over the page behind the gate).
    expect(await screen.findByRole('button', { name: 'Verifying...' })).toBeInTheDocument();
    expect(screen.queryByText('Access Denied')).not.toBeInTheDocument();
    expect(screen.queryByText('Incorrect password. Please try again.')).not.toBeInTheDocument();
    answer(jsonResponse({ ok: true }));
    await waitFor(() => expect(onGranted).toHaveBeenCalledOnce());
    expect(screen.queryByText('Access Denied')).not.toBeInTheDocument();
  });
});
