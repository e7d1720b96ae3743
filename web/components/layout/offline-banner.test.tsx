import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WantFormDialog } from '../../features/listings/components/want-form-dialog';
import { stubApi } from '../../testing/api-stub';
import { renderWithProviders } from '../../testing/render';
import { dismissToast } from '../ui/use-toast';
import { OfflineBanner } from './offline-banner';

/** The toast region, found by CSS: while the modal dialog is open it is aria-hidden (Radix). */
function toastRegion(): HTMLElement {
  const region = document.querySelector<HTMLElement>('[role="region"][aria-label^="Notifications"]');
  if (!region) throw new Error('No toast region');
  return region;
}

/** Switch the browser's network state the way a browser does: navigator.onLine, then the event. */
function setOnline(online: boolean) {
  vi.spyOn(window.navigator, 'onLine', 'get').mockReturnValue(online);
  act(() => {
    window.dispatchEvent(new Event(online ? 'online' : 'offline'));
  });
}

afterEach(() => {
  act(() => dismissToast());
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('the offline banner (ADR 034)', () => {
  it('says the app is offline in a status region, and goes away when the network is back', () => {
    renderWithProviders(<OfflineBanner />);
    const status = screen.getByRole('status');
    expect(status).toBeEmptyDOMElement();

    setOnline(false);
    expect(status).toHaveTextContent(
      'You are offline. You are seeing what was last loaded, and changes cannot be sent until you are back online.',
    );

    setOnline(true);
    expect(status).toBeEmptyDOMElement();
  });

  it('starts offline when the page opens without a network', () => {
    vi.spyOn(window.navigator, 'onLine', 'get').mockReturnValue(false);
    renderWithProviders(<OfflineBanner />);
    expect(screen.getByRole('status')).toHaveTextContent(/^You are offline\./);
  });
});

describe('a write made offline (ADR 034)', () => {
  it('is refused with the offline message, sends nothing, and the form keeps what was typed', async () => {
    const api = stubApi({});
    const user = userEvent.setup();
    renderWithProviders(
      <>
        <OfflineBanner />
        <WantFormDialog open onOpenChange={() => {}} />
      </>,
    );
    setOnline(false);

    await user.type(screen.getByLabelText('Title'), 'Cordless drill');
    await user.selectOptions(
      screen.getByLabelText('Category'),
      screen.getAllByRole('option')[1] as HTMLElement,
    );
    await user.click(screen.getByRole('button', { name: 'Add Want' }));

    const region = toastRegion();
    await waitFor(() => expect(region).toHaveTextContent('You are offline'));
    expect(region).toHaveTextContent('Nothing was sent. Try again when you are back online.');
    // The form's own error toast gave way to the reason.
    expect(region).not.toHaveTextContent('Failed to add want');
    expect(api.calls).toEqual([]);
    expect(screen.getByRole('dialog', { name: 'Add to Want List' })).toBeInTheDocument();
    expect(screen.getByLabelText('Title')).toHaveValue('Cordless drill');
    expect(screen.getByRole('button', { name: 'Add Want' })).toBeEnabled();
  });

  it('goes through once the network is back', async () => {
    const api = stubApi({
      'POST /api/wants': () => new Response(JSON.stringify({ id: 1 }), { status: 201 }),
      'GET /api/wants/my': () => new Response('[]', { status: 200, headers: { 'x-total-count': '0' } }),
    });
    const user = userEvent.setup();
    renderWithProviders(
      <>
        <OfflineBanner />
        <WantFormDialog open onOpenChange={() => {}} />
      </>,
    );
    setOnline(false);
    setOnline(true);
    await user.type(screen.getByLabelText('Title'), 'Ladder');
    await user.selectOptions(
      screen.getByLabelText('Category'),
      screen.getAllByRole('option')[1] as HTMLElement,
    );
    await user.click(screen.getByRole('button', { name: 'Add Want' }));
    await waitFor(() =>
      expect(api.calls.map((call) => `${call.method} ${call.path}`)).toContain('POST /api/wants'),
    );
    expect(toastRegion()).not.toHaveTextContent('You are offline');
  });
});
