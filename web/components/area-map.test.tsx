import { fireEvent, screen, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApproximateArea } from '#common/schemas/places.ts';
import type { SiteInfo } from '#common/schemas/site.ts';
import { siteKeys } from '#web/lib/query-keys.ts';
import { AnswerMarker, renderWithProviders } from '#web/testing/render.tsx';
import { server } from '#web/testing/server.ts';

const AREA: ApproximateArea = {
  latitude: 45.52,
  longitude: -122.65,
  radiusMeters: 2500,
  name: 'Portland, Oregon, United States',
};
const WORDS =
  'Approximate area: near Portland, Oregon, United States, within about 1.5 miles. The exact address is never shown.';
const TILES = { urlTemplate: 'https://tiles.example.org/{z}/{x}/{y}.png', attribution: '© Example tiles' };

function stubSite(mapTiles: SiteInfo['mapTiles']) {
  const site: SiteInfo = {
    publicUrl: 'https://barterhood.example',
    supportEmail: 'support@barterhood.example',
    legalEmail: 'legal@barterhood.example',
    licensingEmail: 'licensing@barterhood.example',
    demoLogin: false,
    googleSignIn: false,
    mapTiles,
  };
  server.use(http.get('/api/site', () => HttpResponse.json(site)));
}

/** The map chunk stood in by a fake that shows what it was given and can fail like a tile does. */
function fakeLeafletMap() {
  const loaded = vi.fn();
  vi.doMock('./leaflet-area-map', () => {
    loaded();
    return {
      default: ({
        area,
        tiles,
        label,
        onUnavailable,
      }: {
        area: ApproximateArea;
        tiles: { urlTemplate: string };
        label: string;
        onUnavailable: () => void;
      }) => (
        <div role="img" aria-label={label} data-tiles={tiles.urlTemplate} data-radius={area.radiusMeters}>
          <button type="button" onClick={onUnavailable}>
            a tile fails
          </button>
        </div>
      ),
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
  vi.restoreAllMocks();
});

describe('AreaMap', () => {
  it('shows the area in words only, and loads no map, when no tile server is configured', async () => {
    const loaded = fakeLeafletMap();
    stubSite(null);
    await renderAreaMap();
    expect(await screen.findByText(WORDS)).toBeInTheDocument();
    // The site's settings are taken in, and the map's effects for them have run: still no map.
    await screen.findByTestId('answered');
    wordsAlone();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(loaded).not.toHaveBeenCalled();
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
    vi.spyOn(window.navigator, 'onLine', 'get').mockReturnValue(false);
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
