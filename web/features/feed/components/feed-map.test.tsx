import { fireEvent, screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import Supercluster from 'supercluster';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FeedMap, FeedMapItem } from '#common/schemas/maps.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { server } from '#web/testing/server.ts';

function item(id: number, title: string, latitude: number, longitude: number): FeedMapItem {
  return {
    id,
    title,
    user: { id: `user-${id}`, firstName: 'Olga', lastName: 'O.' },
    distanceMiles: 1.2,
    point: { latitude, longitude },
  };
}

const MAP: FeedMap = {
  items: [
    item(11, 'Cordless drill', 45.52, -122.65),
    item(12, 'Desk lamp', 45.52, -122.65),
    item(13, 'Camping tent', 45.4, -122.6),
  ],
  withoutPoint: 1,
  centre: { latitude: 45.51, longitude: -122.66 },
  radiusMiles: 25,
};

/** The Leaflet chunk stood in by a fake that shows what it was given and can choose like a marker. */
function fakeMapView() {
  vi.doMock('./feed-map-view', () => ({
    default: ({
      map,
      selectedId,
      onSelect,
      label,
    }: {
      map: FeedMap;
      selectedId: number | null;
      onSelect: (id: number) => void;
      label: string;
    }) => (
      <section aria-label={label} data-selected={selectedId ?? ''}>
        {map.items.map((entry) => (
          <button key={entry.id} type="button" onClick={() => onSelect(entry.id)}>
            marker {entry.id}
          </button>
        ))}
      </section>
    ),
  }));
}

async function renderPanel(onOpen = vi.fn()) {
  server.use(http.get('/api/site', () => HttpResponse.json({ mapTiles: null })));
  const { FeedMapPanel } = await import('./feed-map');
  renderWithProviders(
    <FeedMapPanel
      filters={{ feed: 'everything', radius: 25, sort: 'recent', q: 'drill' }}
      showMatch={false}
      onOpen={onOpen}
    />,
  );
  return onOpen;
}

afterEach(() => {
  vi.doUnmock('./feed-map-view');
  vi.resetModules();
});

describe('FeedMapPanel', () => {
  it("lists the map's items in the feed's order, asking with the feed's filters", async () => {
    fakeMapView();
    let asked: URL | null = null;
    server.use(
      http.get('/api/feed/everything/map', ({ request }) => {
        asked = new URL(request.url);
        return HttpResponse.json(MAP);
      }),
    );
    await renderPanel();
    const list = await screen.findByRole('list', { name: 'Items on the map' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((row) => row.getAttribute('data-item-id')),
    ).toEqual(['11', '12', '13']);
    expect(
      screen.getByText('3 items on the map 1 more has no location and is not on the map.'),
    ).toBeInTheDocument();
    expect(Object.fromEntries((asked as unknown as URL).searchParams)).toEqual({
      radius: '25',
      sort: 'recent',
      q: 'drill',
    });
    expect(await screen.findByRole('region', { name: 'Map of the items near you' })).toBeInTheDocument();
  });

  it('marks in the list what was chosen on the map, and on the map what was chosen in the list', async () => {
    fakeMapView();
    server.use(http.get('/api/feed/everything/map', () => HttpResponse.json(MAP)));
    await renderPanel();
    const map = await screen.findByRole('region', { name: 'Map of the items near you' });
    fireEvent.click(within(map).getByRole('button', { name: 'marker 13' }));
    expect(screen.getByRole('button', { name: /^Camping tent/, pressed: true })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Cordless drill/, pressed: false })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /^Desk lamp/ }));
    expect(map).toHaveAttribute('data-selected', '12');
    expect(screen.getByRole('button', { name: /^Desk lamp/, pressed: true })).toBeInTheDocument();
  });

  it("opens an item's details from the list", async () => {
    fakeMapView();
    server.use(http.get('/api/feed/everything/map', () => HttpResponse.json(MAP)));
    const onOpen = await renderPanel();
    fireEvent.click(await screen.findByRole('button', { name: 'Details of Camping tent' }));
    expect(onOpen).toHaveBeenCalledWith(expect.objectContaining({ id: 13, title: 'Camping tent' }));
  });

  it('keeps the list when the map cannot be loaded', async () => {
    vi.doMock('./feed-map-view', () => {
      throw new Error('Failed to fetch dynamically imported module');
    });
    server.use(http.get('/api/feed/everything/map', () => HttpResponse.json(MAP)));
    await renderPanel();
    expect(await screen.findByRole('list', { name: 'Items on the map' })).toBeInTheDocument();
    await vi.waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Map of the items near you' })).toBeNull(),
    );
  });

  it('says so when the map has nothing, and when it fails', async () => {
    fakeMapView();
    server.use(
      http.get('/api/feed/everything/map', () => HttpResponse.json({ ...MAP, items: [], withoutPoint: 0 })),
    );
    await renderPanel();
    expect(await screen.findByText('No items to show on the map. Try a wider distance.')).toBeInTheDocument();
  });

  it('offers to try again when the map cannot be read', async () => {
    fakeMapView();
    server.use(
      http.get('/api/feed/everything/map', () =>
        HttpResponse.json({ code: 'X', message: 'no' }, { status: 500 }),
      ),
    );
    await renderPanel();
    expect(await screen.findByText('The map could not be loaded.')).toBeInTheDocument();
  });
});

describe('clusterItems', () => {
  it('merges items at one point, and keeps apart those far enough at the zoom', async () => {
    const { clusterItems } = await import('./feed-map-view');
    const index = new Supercluster<{ itemId: number; latitude: number; longitude: number }>({
      radius: 44,
      maxZoom: 16,
    });
    index.load(
      MAP.items.map((entry) => ({
        type: 'Feature' as const,
        properties: { itemId: entry.id, ...entry.point },
        geometry: { type: 'Point' as const, coordinates: [entry.point.longitude, entry.point.latitude] },
      })),
    );
    const world: [number, number, number, number] = [-180, -85, 180, 85];
    // Zoomed out, one marker for all three; zoomed in, the two at one point stay one (never expandable).
    expect(clusterItems(index, world, 3).map((spot) => spot.itemIds.sort())).toEqual([[11, 12, 13]]);
    const near = clusterItems(index, world, 14);
    expect(near).toHaveLength(2);
    const shared = near.find((spot) => spot.itemIds.length === 2);
    expect(shared).toMatchObject({
      latitude: expect.closeTo(45.52, 5),
      longitude: expect.closeTo(-122.65, 5),
      expansionZoom: null,
    });
    expect(near.find((spot) => spot.itemIds.length === 1)).toEqual({
      latitude: 45.4,
      longitude: -122.6,
      itemIds: [13],
      expansionZoom: null,
    });
  });
});
