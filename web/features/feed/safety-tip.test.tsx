import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { dismissToast } from '../../components/ui/use-toast';
import { renderWithProviders } from '../../testing/render';
import { server } from '../../testing/server';
import { useSafetyTip } from './safety-tip';

const TIP = 'Always meet in public places and trust your instincts when bartering with others.';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** A screen that asks for the tip, as the home feed does, with a dialog it can open. */
function FeedLike() {
  useSafetyTip();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Propose Barter</Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent title="Propose a Barter">
          <p>Choose what to offer.</p>
        </DialogContent>
      </Dialog>
    </>
  );
}

function signedInAs(id: string) {
  server.use(
    http.get('/api/auth/user', () =>
      HttpResponse.json({ id, firstName: 'Maya', lastName: 'Okafor', email: `${id}@example.com` }),
    ),
  );
}

/** Open the feed, wait past the tip's 3 s, and say whether it showed; then leave the feed. */
async function visitFeed(): Promise<boolean> {
  const view = renderWithProviders(<FeedLike />);
  await screen.findByRole('button', { name: 'Propose Barter' });
  // The member is known before the 3 s start counting.
  await act(async () => {
    await vi.advanceTimersByTimeAsync(50);
  });
  await act(async () => {
    await vi.advanceTimersByTimeAsync(3_000);
  });
  await act(async () => {
    await vi.advanceTimersByTimeAsync(50);
  });
  const shown = screen.queryByText(TIP) !== null;
  view.unmount();
  act(() => dismissToast());
  return shown;
}

describe('the safety tip (issue 28: once a day, never over a dialog)', () => {
  it('shows on the first visit of the day only, for each member, and again the next day', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(new Date(2026, 10, 28, 9, 0));
    signedInAs('maya');
    expect(await visitFeed()).toBe(true);
    expect(await visitFeed()).toBe(false);
    vi.setSystemTime(new Date(2026, 10, 28, 23, 59));
    expect(await visitFeed()).toBe(false);

    // Another member on the same device has not seen it today.
    signedInAs('omar');
    expect(await visitFeed()).toBe(true);

    // The next calendar day, however soon.
    signedInAs('maya');
    vi.setSystemTime(new Date(2026, 10, 29, 0, 1));
    expect(await visitFeed()).toBe(true);
  });

  it('goes when a dialog opens over it', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(new Date(2026, 10, 28, 9, 0));
    signedInAs('maya');
    renderWithProviders(<FeedLike />);
    const propose = await screen.findByRole('button', { name: 'Propose Barter' });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(3_050);
    });
    expect(screen.getByText(TIP)).toBeInTheDocument();
    await userEvent.click(propose);
    expect(await screen.findByRole('dialog', { name: 'Propose a Barter' })).toBeInTheDocument();
    expect(screen.queryByText(TIP)).not.toBeInTheDocument();
  });

  it('a dialog open when the tip is due holds it back until it closes', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(new Date(2026, 10, 28, 9, 0));
    signedInAs('maya');
    renderWithProviders(<FeedLike />);
    await userEvent.click(await screen.findByRole('button', { name: 'Propose Barter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Propose a Barter' });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(3_050);
    });
    expect(screen.queryByText(TIP)).not.toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(dialog).not.toBeInTheDocument();
    expect(await screen.findByText(TIP)).toBeInTheDocument();
  });
});
