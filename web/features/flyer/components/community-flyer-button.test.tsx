import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FlyerNeighborhood } from '#common/schemas/flyer.ts';
import type { SiteInfo } from '#common/schemas/site.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { errorJson, recordRequests, server } from '#web/testing/server.ts';
import { CommunityFlyerButton } from './community-flyer-button';

const SITE: SiteInfo = {
  publicUrl: 'https://barterhood.example',
  supportEmail: 'support@barterhood.example',
  legalEmail: 'legal@barterhood.example',
  licensingEmail: 'licensing@barterhood.example',
  demoLogin: true,
  googleSignIn: false,
  mapTiles: null,
};

const NEIGHBORHOOD: FlyerNeighborhood = {
  offers: [{ title: 'Ladder & <rope>', category: 'tools', isService: false, firstName: 'Ada' }],
  wants: [{ title: 'Sewing lessons', category: 'lessons', isService: true, firstName: 'Ben' }],
};

/** The site's settings and the neighbourhood's offers and wants; the requests sent are recorded. */
function answerApi(neighborhood: () => Response = () => HttpResponse.json(NEIGHBORHOOD)) {
  server.use(
    http.get('/api/site', () => HttpResponse.json(SITE)),
    http.get('/api/flyer/neighborhood', neighborhood),
  );
  return recordRequests();
}

const neighborhoodCalls = (api: ReturnType<typeof answerApi>) => api.to('GET /api/flyer/neighborhood').length;

async function openDialog() {
  const user = userEvent.setup();
  renderWithProviders(<CommunityFlyerButton />);
  await user.click(screen.getByRole('button', { name: 'Community Flyer' }));
  const dialog = await screen.findByRole('dialog', { name: 'Community Flyer' });
  const preview = await screen.findByTitle('Community flyer preview');
  return { user, dialog, preview };
}

const restoreAfter: Array<() => void> = [];
afterEach(() => {
  for (const restore of restoreAfter.splice(0)) restore();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('CommunityFlyerButton', () => {
  it('opens the community flyer: ten tabs with the site address, no neighbourhood until asked', async () => {
    const api = answerApi();
    const { preview } = await openDialog();
    const html = preview.getAttribute('srcdoc') ?? '';
    expect(html.match(/<li class="tab">/g)).toHaveLength(10);
    expect(html).toContain('https://barterhood.example</span></li>');
    expect(html).not.toContain('Right Now in Our Neighborhood');
    expect(neighborhoodCalls(api)).toBe(0);
  });

  it('adds current offers and wants when the checkbox is ticked', async () => {
    const api = answerApi();
    const { user } = await openDialog();
    await user.click(
      screen.getByRole('checkbox', { name: /Include what our neighborhood offers and wants right now/ }),
    );
    await waitFor(() =>
      expect(screen.getByTitle('Community flyer preview').getAttribute('srcdoc')).toContain(
        'Right Now in Our Neighborhood',
      ),
    );
    const html = screen.getByTitle('Community flyer preview').getAttribute('srcdoc') ?? '';
    expect(html).toContain(
      '<li>Ada offers <strong>Ladder &amp; &lt;rope&gt;</strong> <span class="meta">(tools)</span></li>',
    );
    expect(html).toContain(
      '<li>Ben wants <strong>Sewing lessons</strong> <span class="meta">(lessons service)</span></li>',
    );
    expect(neighborhoodCalls(api)).toBe(1);

    await user.click(screen.getByRole('checkbox', { name: /Include what our neighborhood/ }));
    expect(screen.getByTitle('Community flyer preview').getAttribute('srcdoc')).not.toContain(
      'Right Now in Our Neighborhood',
    );
  });

  it('downloads the shown flyer as barterhood-community-flyer.html', async () => {
    answerApi();
    // jsdom has no blob URLs: stand-ins, put back afterwards.
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:flyer');
    const revokeObjectURL = vi.fn();
    const { createObjectURL: originalCreate, revokeObjectURL: originalRevoke } = URL;
    Object.assign(URL, { createObjectURL, revokeObjectURL });
    restoreAfter.push(() =>
      Object.assign(URL, { createObjectURL: originalCreate, revokeObjectURL: originalRevoke }),
    );
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    const { preview } = await openDialog();
    vi.useFakeTimers();
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));

    expect(clicked).toHaveLength(1);
    expect(clicked[0]?.download).toBe('barterhood-community-flyer.html');
    expect(clicked[0]?.getAttribute('href')).toBe('blob:flyer');
    expect(clicked[0]?.isConnected).toBe(false);
    const blob = createObjectURL.mock.calls[0]?.[0] as Blob;
    expect(blob.type).toBe('text/html;charset=utf-8');
    expect(await blob.text()).toBe(preview.getAttribute('srcdoc'));
    vi.advanceTimersByTime(10_000);
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:flyer');
  });

  it('still offers the flyer without the neighbourhood when that cannot be loaded', async () => {
    answerApi(() => errorJson(401, 'Please sign in to continue.', 'UNAUTHORIZED'));
    const { user } = await openDialog();
    await user.click(screen.getByRole('checkbox', { name: /Include what our neighborhood/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load what the neighborhood offers');
    expect(screen.getByRole('button', { name: 'Download' })).toBeEnabled();
    expect(screen.getByTitle('Community flyer preview').getAttribute('srcdoc')).not.toContain(
      'Right Now in Our Neighborhood',
    );
  });
});
