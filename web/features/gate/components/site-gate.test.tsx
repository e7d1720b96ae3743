import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '#web/testing/render.tsx';
import { errorJson, recordRequests, server } from '#web/testing/server.ts';
import { SiteGate } from './site-gate';

/** POST /api/verify-password held until the test answers it. */
function heldAnswer() {
  let answer: () => void = () => {};
  const answered = new Promise<void>((resolve) => (answer = resolve));
  const handler = http.post('/api/verify-password', async () => {
    await answered;
    return HttpResponse.json({ ok: true });
  });
  return { handler, answer: () => answer() };
}

const refused = () => errorJson(401, 'Incorrect password.', 'INCORRECT_PASSWORD');

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
    const held = heldAnswer();
    server.use(held.handler);
    const api = recordRequests();
    const onGranted = vi.fn();
    renderWithProviders(<SiteGate onGranted={onGranted} />);
    await userEvent.type(screen.getByLabelText('Site password'), 'barter{Enter}');
    expect(await screen.findByRole('button', { name: 'Verifying...' })).toBeDisabled();
    expect(api.sent.map((request) => `${request.method} ${request.url}`)).toEqual([
      'POST /api/verify-password',
    ]);
    expect(await api.bodiesOf('POST /api/verify-password')).toEqual([{ password: 'barter' }]);
    held.answer();
    await waitFor(() => expect(onGranted).toHaveBeenCalledOnce());
  });

  it('a wrong password clears the field and says Access Denied', async () => {
    server.use(http.post('/api/verify-password', refused));
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
    server.use(http.post('/api/verify-password', () => HttpResponse.error()));
    renderWithProviders(<SiteGate onGranted={() => {}} />);
    const field = screen.getByLabelText('Site password');
    await userEvent.type(field, 'barter{Enter}');
    expect(await screen.findByText('Unable to verify password. Please try again.')).toBeInTheDocument();
    expect(field).toHaveValue('barter');
  });

  it('a refusal goes as soon as the member tries again (issue 28)', async () => {
    const held = heldAnswer();
    // The first try is refused, the second held until the test answers it.
    server.use(http.post('/api/verify-password', refused, { once: true }), held.handler);
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
    held.answer();
    await waitFor(() => expect(onGranted).toHaveBeenCalledOnce());
    expect(screen.queryByText('Access Denied')).not.toBeInTheDocument();
  });
});
