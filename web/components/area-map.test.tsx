import { dehydrate, hydrate, QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { hydrateRoot } from 'react-dom/client';
import { prerender } from 'react-dom/static';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { ApproximateArea } from '#common/schemas/places.ts';
import type { SiteInfo } from '#common/schemas/site.ts';
import { createQueryClient } from '#web/lib/query-client.ts';
import { siteKeys } from '#web/lib/query-keys.ts';
import { AnswerMarker, renderWithProviders } from '#web/testing/render.tsx';
import { server } from '#web/testing/server.ts';
import type { AreaMapDrawing } from './leaflet-area-map';

const AREA: ApproximateArea = {
  latitude: 45.52,
  longitude: -122.65,
  radiusMeters: 2500,
  name: 'Portland, Oregon, United States',
};
const WORDS =
  'Approximate area: near Portland, Oregon, United States, within about 1.5 miles. The exact address is never shown.';
const TILES = { urlTemplate: 'https://tiles.example.org/{z}/{x}/{y}.png', attribution: '© Example tiles' };

function siteInfo(mapTiles: SiteInfo['mapTiles']): SiteInfo {
  return {
    publicUrl: 'https://barterhood.example',
    supportEmail: 'support@barterhood.example',
    legalEmail: 'legal@barterhood.example',
    licensingEmail: 'licensing@barterhood.example',
    demoLogin: false,
    googleSignIn: false,
    mapTiles,
  };
}

function stubSite(mapTiles: SiteInfo['mapTiles']) {
  server.use(http.get('/api/site', () => HttpResponse.json(siteInfo(mapTiles))));
}

/**
 * The map chunk stood in by a fake that writes what it was given on the map's box and can fail like
 * a tile does.
 */
function fakeLeafletMap() {
  const loaded = vi.fn();
  vi.doMock('./leaflet-area-map', () => {
    loaded();
    return {
      drawAreaMap: (element: HTMLElement, { area, tiles, onUnavailable }: AreaMapDrawing) => {
        element.dataset.tiles = tiles?.urlTemplate ?? "the server's own base";
        element.dataset.radius = String(area.radiusMeters);
        const tile = document.createElement('button');
        tile.type = 'button';
        tile.textContent = 'a tile fails';
        tile.addEventListener('click', onUnavailable);
        element.append(tile);
        return () => tile.remove();
      },
    };
  });
  return loaded;
}

/** The map, and a marker that shows once the site's settings are taken in (ADR 069). */
async function renderAreaMap(area = AREA) {
  const { AreaMap } = await import('./area-map');
  return renderWithProviders(
    <>
      <AreaMap area={area} />
      <AnswerMarker queryKey={siteKeys.info} />
    </>,
  );
}

/** The map's place in the figure is empty: the words alone. */
const wordsAlone = () => expect(screen.getByTestId('area-map').children).toHaveLength(1);

afterEach(() => {
  vi.doUnmock('./leaflet-area-map');
  vi.resetModules();
});

describe('AreaMap', () => {
  it("draws the circle on the server's own base, with the words, when no tile server is configured (ADR 086)", async () => {
    const loaded = fakeLeafletMap();
    stubSite(null);
    await renderAreaMap();
    const map = await screen.findByRole('img', {
      name: 'Map of the approximate area near Portland, Oregon, United States',
    });
    expect(map).toHaveAttribute('data-tiles', "the server's own base");
    expect(map).toHaveAttribute('data-radius', '2500');
    expect(screen.getByText(WORDS)).toBeInTheDocument();
    expect(loaded).toHaveBeenCalledTimes(1);
  });

  it('draws nothing before the settings say which base to use', async () => {
    const loaded = fakeLeafletMap();
    let answer: (() => void) | null = null;
    server.use(
      http.get(
        '/api/site',
        () =>
          new Promise<Response>((resolve) => {
            answer = () => resolve(HttpResponse.json({}) as Response);
          }),
      ),
    );
    await renderAreaMap();
    expect(await screen.findByText(WORDS)).toBeInTheDocument();
    wordsAlone();
    expect(loaded).not.toHaveBeenCalled();
    expect(answer).not.toBeNull();
  });

  it('draws the circle on the configured tiles, with the words beside it', async () => {
    fakeLeafletMap();
    stubSite(TILES);
    await renderAreaMap();
    const map = await screen.findByRole('img', {
      name: 'Map of the approximate area near Portland, Oregon, United States',
    });
    expect(map).toHaveAttribute('data-tiles', TILES.urlTemplate);
    expect(map).toHaveAttribute('data-radius', '2500');
    expect(screen.getByText(WORDS)).toBeInTheDocument();
  });

  it('gives way to the words when tiles fail, without an error', async () => {
    fakeLeafletMap();
    stubSite(TILES);
    await renderAreaMap();
    fireEvent.click(await screen.findByRole('button', { name: 'a tile fails' }));
    await waitFor(() => expect(screen.queryByRole('img')).not.toBeInTheDocument());
    wordsAlone();
    expect(screen.getByText(WORDS)).toBeInTheDocument();
  });

  it('shows the words only while the browser is offline', async () => {
    const loaded = fakeLeafletMap();
    // Restored alone: restoring every mock would end the setup's watch on console.error too.
    const offline = vi.spyOn(window.navigator, 'onLine', 'get').mockReturnValue(false);
    onTestFinished(() => offline.mockRestore());
    stubSite(TILES);
    await renderAreaMap();
    await screen.findByTestId('answered');
    expect(screen.getByText(WORDS)).toBeInTheDocument();
    wordsAlone();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(loaded).not.toHaveBeenCalled();
  });

  it('shows the words only when the map cannot be loaded, without an error', async () => {
    vi.doMock('./leaflet-area-map', () => {
      throw new Error('Failed to fetch dynamically imported module');
    });
    stubSite(TILES);
    await renderAreaMap();
    // The settings name tiles, so the map's place is held while its chunk loads; the failed chunk gives way.
    await screen.findByTestId('answered');
    await waitFor(wordsAlone);
    expect(screen.getByText(WORDS)).toBeInTheDocument();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
  });

  it("is hydrated as the server drew it, though the server cannot load Leaflet (issue 31's React #418)", async () => {
    // The server (ADR 037): the site's settings read, and the map's chunk failing as Leaflet does
    // there (it needs a window).
    vi.doMock('./leaflet-area-map', () => {
      throw new ReferenceError('window is not defined');
    });
    const serverSide = await import('./area-map');
    const serverClient = createQueryClient();
    serverClient.setQueryData(siteKeys.info, siteInfo(null));
    const { prelude } = await prerender(
      <QueryClientProvider client={serverClient}>
        <serverSide.AreaMap area={AREA} />
      </QueryClientProvider>,
    );
    const html = await new Response(prelude).text();
    // React's development check for two renderers of one context (a server's and a browser's never
    // share a process): the server's mark on the context is taken off, as a new process would start.
    Object.assign(QueryClientContext, { _currentRenderer: null });
    expect(html).toContain('aria-label="Map of the approximate area near Portland, Oregon, United States"');

    // The browser: its own modules, the real chunk (a fake here), the server's page and data.
    vi.doUnmock('./leaflet-area-map');
    vi.resetModules();
    const loaded = fakeLeafletMap();
    stubSite(null);
    const browserSide = await import('./area-map');
    const browserClient = createQueryClient();
    hydrate(browserClient, dehydrate(serverClient));
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const drawnBox = container.querySelector('[role="img"]');
    const mismatches = vi.fn();
    const root = await act(async () =>
      hydrateRoot(
        container,
        <QueryClientProvider client={browserClient}>
          <browserSide.AreaMap area={AREA} />
        </QueryClientProvider>,
        { onRecoverableError: mismatches },
      ),
    );
    // The map is drawn into the box the server drew: kept, not drawn again.
    await waitFor(() => expect(drawnBox).toHaveAttribute('data-radius', '2500'));
    expect(loaded).toHaveBeenCalledTimes(1);
    expect(drawnBox?.isConnected).toBe(true);
    expect(mismatches).not.toHaveBeenCalled();
    act(() => root.unmount());
    container.remove();
  });

  it("shows a visitor the words alone without a tile server, since the server's own base is for members", async () => {
    const loaded = fakeLeafletMap();
    stubSite(null);
    const { AreaMap } = await import('./area-map');
    renderWithProviders(
      <>
        <AreaMap area={AREA} baseMap={false} />
        <AnswerMarker queryKey={siteKeys.info} />
      </>,
    );
    await screen.findByTestId('answered');
    expect(screen.getByText(WORDS)).toBeInTheDocument();
    wordsAlone();
    expect(loaded).not.toHaveBeenCalled();
  });

  it('shows a visitor the configured tiles', async () => {
    fakeLeafletMap();
    stubSite(TILES);
    const { AreaMap } = await import('./area-map');
    renderWithProviders(<AreaMap area={AREA} baseMap={false} />);
    const map = await screen.findByRole('img', {
      name: 'Map of the approximate area near Portland, Oregon, United States',
    });
    await waitFor(() => expect(map).toHaveAttribute('data-tiles', TILES.urlTemplate));
  });

  it('says "in this area" when no town is near the centre', async () => {
    stubSite(null);
    await renderAreaMap({ ...AREA, name: null, radiusMeters: 1609 });
    expect(
      await screen.findByText(
        'Approximate area: in this area, within about 1 mile. The exact address is never shown.',
      ),
    ).toBeInTheDocument();
  });
});
