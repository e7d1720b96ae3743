import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FLYER_PRINT_DELAY_MS } from '#common/constants.ts';
import type { SiteInfo } from '#common/schemas/site.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { server } from '#web/testing/server.ts';
import FlyerPage from './flyer-page';

const SITE: SiteInfo = {
  publicUrl: 'https://barterhood.example',
  supportEmail: 'support@barterhood.example',
  legalEmail: 'legal@barterhood.example',
  licensingEmail: 'licensing@barterhood.example',
  demoLogin: true,
  googleSignIn: false,
  mapTiles: null,
};

function stubSiteInfo(site: SiteInfo = SITE) {
  server.use(http.get('/api/site', () => HttpResponse.json(site)));
}

/** A stand-in for the window window.open() returns; records what the page does with it. */
function fakePrintWindow() {
  return {
    closed: false,
    document: { open: vi.fn(), write: vi.fn(), close: vi.fn() },
    focus: vi.fn(),
    print: vi.fn(),
    close: vi.fn(),
  };
}

async function renderReadyPage() {
  stubSiteInfo();
  renderWithProviders(<FlyerPage />, { path: '/flyer' });
  expect(screen.getByRole('heading', { level: 1, name: 'Community Flyer' })).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
  const print = screen.getByRole('button', { name: 'Print a Flyer' });
  await waitFor(() => expect(print).toBeEnabled());
  return print;
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('FlyerPage', () => {
  it('previews the printable flyer: tagline, popular items and a QR code for the site', async () => {
    await renderReadyPage();
    const preview = screen.getByTitle('Flyer preview') as HTMLIFrameElement;
    const html = preview.getAttribute('srcdoc') ?? '';
    expect(html).toContain('<h1>Trade with Your Neighbors</h1>');
    expect(html).toContain('<li>Garden Supplies</li>');
    expect(html).toContain('Scan to visit');
    expect(html).toMatch(
      /<img src="data:image\/svg\+xml;base64,[^"]+" alt="QR code for https:\/\/barterhood\.example"\/?>/,
    );
  });

  it('Print a Flyer writes the flyer into a new window, prints it after 250 ms, then closes it', async () => {
    const print = await renderReadyPage();
    const printWindow = fakePrintWindow();
    const open = vi.spyOn(window, 'open').mockReturnValue(printWindow as unknown as Window);
    vi.useFakeTimers();

    fireEvent.click(print);
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(printWindow.document.write).toHaveBeenCalledTimes(1);
    const written = printWindow.document.write.mock.calls[0]?.[0] as string;
    expect(written).toBe(screen.getByTitle('Flyer preview').getAttribute('srcdoc'));
    expect(written).not.toContain('<script');
    expect(printWindow.document.close).toHaveBeenCalled();

    act(() => vi.advanceTimersByTime(FLYER_PRINT_DELAY_MS - 1));
    expect(printWindow.print).not.toHaveBeenCalled();
    expect(printWindow.close).not.toHaveBeenCalled();

    act(() => vi.advanceTimersByTime(1));
    expect(printWindow.print).toHaveBeenCalledTimes(1);
    expect(printWindow.close).toHaveBeenCalledTimes(1);
    const [printOrder] = printWindow.print.mock.invocationCallOrder;
    const [closeOrder] = printWindow.close.mock.invocationCallOrder;
    expect(closeOrder).toBeGreaterThan(printOrder ?? Number.POSITIVE_INFINITY);
  });

  it('does not print a window the user already closed', async () => {
    const print = await renderReadyPage();
    const printWindow = fakePrintWindow();
    vi.spyOn(window, 'open').mockReturnValue(printWindow as unknown as Window);
    vi.useFakeTimers();
    fireEvent.click(print);
    printWindow.closed = true;
    act(() => vi.advanceTimersByTime(FLYER_PRINT_DELAY_MS));
    expect(printWindow.print).not.toHaveBeenCalled();
  });

  it('says so when the browser blocks the print window', async () => {
    const print = await renderReadyPage();
    vi.spyOn(window, 'open').mockReturnValue(null);
    fireEvent.click(print);
    expect(await screen.findByText('Pop-up blocked')).toBeInTheDocument();
    expect(screen.getByText('Allow pop-ups for this site to print the flyer.')).toBeInTheDocument();
  });

  it('says when the QR code would point to this computer, and how to set the public address', async () => {
    stubSiteInfo({ ...SITE, publicUrl: 'http://localhost:5000' });
    renderWithProviders(<FlyerPage />, { path: '/flyer' });
    const note = await screen.findByRole('note');
    expect(note).toHaveTextContent('point to this computer (http://localhost:5000)');
    expect(note).toHaveTextContent('PUBLIC_URL');
  });

  it('says nothing of the kind for a public address', async () => {
    await renderReadyPage();
    expect(screen.queryByRole('note')).not.toBeInTheDocument();
  });
});
