import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OfflineBanner } from '#web/components/layout/offline-banner.tsx';
import { setOnline, toastRegion } from '#web/testing/network.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { pagedJson, recordRequests, server } from '#web/testing/server.ts';
import { WantFormDialog } from './want-form-dialog';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a write made offline (ADR 034)', () => {
  it('is refused with the offline message, sends nothing, and the form keeps what was typed', async () => {
    const api = recordRequests();
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
    expect(api.sent).toEqual([]);
    expect(screen.getByRole('dialog', { name: 'Add to Want List' })).toBeInTheDocument();
    expect(screen.getByLabelText('Title')).toHaveValue('Cordless drill');
    expect(screen.getByRole('button', { name: 'Add Want' })).toBeEnabled();
  });

  it('goes through once the network is back', async () => {
    server.use(
      http.post('/api/wants', () => HttpResponse.json({ id: 1 }, { status: 201 })),
      http.get('/api/wants/my', () => pagedJson([])),
    );
    const api = recordRequests();
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
      expect(api.sent.map((call) => `${call.method} ${call.path}`)).toContain('POST /api/wants'),
    );
    expect(toastRegion()).not.toHaveTextContent('You are offline');
  });
});
