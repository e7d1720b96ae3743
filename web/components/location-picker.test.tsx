import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOCATION_SEARCH_DEBOUNCE_MS } from '#common/constants.ts';
import type { Place } from '#common/schemas/places.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { errorJson, recordRequests, server } from '#web/testing/server.ts';
import { LocationPicker } from './location-picker';

const PORTLAND_OR: Place = {
  id: 'geonames:5746545',
  displayName: 'Portland, Oregon, United States',
  latitude: 45.52345,
  longitude: -122.67621,
};
const PORTLAND_ME: Place = {
  id: 'geonames:4975802',
  displayName: 'Portland, Maine, United States',
  latitude: 43.66147,
  longitude: -70.25533,
};

/** GET /api/places/search answers `answer`; every request the picker sends is recorded. */
function stubSearch(answer: () => Response) {
  server.use(http.get('/api/places/search', answer));
  return recordRequests();
}

function searchesOf(api: ReturnType<typeof recordRequests>): string[] {
  return api.to('GET /api/places/search').map((request) => request.query.get('q') ?? '');
}

/** The picker as a form uses it: the text lives outside, a choice replaces it. */
function Harness({ onSelect }: { onSelect: (place: Place) => void }) {
  const [value, setValue] = useState('');
  return (
    <>
      <label htmlFor="location">Location</label>
      <LocationPicker
        id="location"
        value={value}
        onTextChange={setValue}
        onSelect={(place) => {
          setValue(place.displayName);
          onSelect(place);
        }}
      />
    </>
  );
}

function renderPicker() {
  const onSelect = vi.fn();
  renderWithProviders(<Harness onSelect={onSelect} />);
  return { onSelect, input: screen.getByRole('combobox', { name: 'Location' }) };
}

/**
 * The search's pause, gone by on a fake clock (installed by `fakeClock` before the render): the
 * picker's timer has fired when this returns, so a search it was going to make has been sent.
 */
const pastThePause = () => act(() => vi.advanceTimersByTimeAsync(LOCATION_SEARCH_DEBOUNCE_MS + 100));

/** A fake clock that also moves with real time (so findBy waits), and a user that keeps to it. */
function fakeClock() {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  return userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
}

function setGeolocation(getCurrentPosition: Geolocation['getCurrentPosition']) {
  Object.defineProperty(window.navigator, 'geolocation', {
    configurable: true,
    value: { getCurrentPosition },
  });
}

afterEach(() => {
  vi.useRealTimers();
  if (vi.isMockFunction(console.warn)) vi.mocked(console.warn).mockRestore();
  Reflect.deleteProperty(window.navigator, 'geolocation');
});

describe('LocationPicker', () => {
  it('does not search under 3 characters, then asks once, after the pause, for what was typed', async () => {
    const api = stubSearch(() => HttpResponse.json([PORTLAND_OR, PORTLAND_ME]));
    const user = fakeClock();
    const { input } = renderPicker();
    await user.type(input, 'Po');
    await pastThePause();
    expect(api.sent).toEqual([]);

    await user.type(input, 'rtl');
    // Typing goes on within the pause: nothing is asked yet.
    expect(api.sent).toEqual([]);
    expect(await screen.findByRole('option', { name: 'Portland, Oregon, United States' })).toBeVisible();
    expect(screen.getByRole('option', { name: 'Portland, Maine, United States' })).toBeVisible();
    expect(searchesOf(api)).toEqual(['Portl']);
    expect(api.sent).toHaveLength(1);
    expect(input).toHaveAttribute('aria-expanded', 'true');
    expect(input).toHaveAttribute('aria-controls', screen.getByRole('listbox').id);
    expect(screen.getByText('2 locations found')).toBeInTheDocument();
  });

  it('shows at most 5 suggestions', async () => {
    const many = Array.from({ length: 7 }, (_, i) => ({
      ...PORTLAND_OR,
      id: `p${i}`,
      displayName: `Place ${i}`,
    }));
    stubSearch(() => HttpResponse.json(many));
    const { input } = renderPicker();
    await userEvent.type(input, 'Pla');
    await screen.findByRole('option', { name: 'Place 0' });
    expect(screen.getAllByRole('option')).toHaveLength(5);
  });

  it("says 'No locations found.' when nothing matches", async () => {
    stubSearch(() => HttpResponse.json([]));
    const { input } = renderPicker();
    await userEvent.type(input, 'xqzzvq');
    expect(await screen.findByText('No locations found.')).toBeVisible();
    expect(screen.queryByRole('option')).not.toBeInTheDocument();
    expect(input).toHaveAttribute('aria-expanded', 'false');
  });

  it('arrow keys move through the suggestions and Enter chooses one', async () => {
    const api = stubSearch(() => HttpResponse.json([PORTLAND_OR, PORTLAND_ME]));
    const user = fakeClock();
    const { input, onSelect } = renderPicker();
    await user.type(input, 'Portl');
    await screen.findByRole('option', { name: 'Portland, Maine, United States' });

    await user.keyboard('{ArrowDown}');
    const oregon = screen.getByRole('option', { name: 'Portland, Oregon, United States' });
    expect(input).toHaveAttribute('aria-activedescendant', oregon.id);
    expect(oregon).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowDown}');
    const maine = screen.getByRole('option', { name: 'Portland, Maine, United States' });
    expect(input).toHaveAttribute('aria-activedescendant', maine.id);
    await user.keyboard('{ArrowDown}');
    expect(input).toHaveAttribute('aria-activedescendant', oregon.id);
    await user.keyboard('{ArrowUp}');
    expect(input).toHaveAttribute('aria-activedescendant', maine.id);
    await user.keyboard('{ArrowUp}{Enter}');

    expect(onSelect).toHaveBeenCalledExactlyOnceWith(PORTLAND_OR);
    expect(input).toHaveValue('Portland, Oregon, United States');
    expect(input).toHaveAttribute('aria-expanded', 'false');
    expect(input).not.toHaveAttribute('aria-activedescendant');
    // The chosen name is not searched again.
    await pastThePause();
    expect(searchesOf(api)).toEqual(['Portl']);
    expect(screen.queryByRole('option')).not.toBeInTheDocument();
  });

  it('Escape closes the suggestions; a click chooses one', async () => {
    stubSearch(() => HttpResponse.json([PORTLAND_OR, PORTLAND_ME]));
    const { input, onSelect } = renderPicker();
    await userEvent.type(input, 'Portl');
    await screen.findByRole('option', { name: 'Portland, Maine, United States' });
    await userEvent.keyboard('{Escape}');
    expect(input).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('option')).not.toBeInTheDocument();

    await userEvent.keyboard('{ArrowDown}');
    await userEvent.click(screen.getByRole('option', { name: 'Portland, Maine, United States' }));
    expect(onSelect).toHaveBeenCalledExactlyOnceWith(PORTLAND_ME);
    expect(input).toHaveValue('Portland, Maine, United States');
  });

  it('a failed search is logged and leaves no suggestions', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    stubSearch(() => errorJson(502, 'Place search is unavailable', 'GEOCODER_UNAVAILABLE'));
    const { input } = renderPicker();
    await userEvent.type(input, 'Portl');
    await waitFor(() => expect(warn).toHaveBeenCalledWith('Location search failed', expect.any(Error)));
    expect(screen.queryByRole('option')).not.toBeInTheDocument();
    expect(screen.queryByText('No locations found.')).not.toBeInTheDocument();
    expect(screen.queryByText('Searching...')).not.toBeInTheDocument();
  });

  it("use current location names the place around the member and keeps the member's own point", async () => {
    const buckman = {
      id: 'zillow:271068',
      displayName: 'Buckman, Portland, Oregon, United States',
      latitude: 45.51734,
      longitude: -122.65305,
    };
    server.use(http.get('/api/places/reverse', () => HttpResponse.json(buckman)));
    const api = recordRequests();
    setGeolocation((success) =>
      success({ coords: { latitude: 45.5152, longitude: -122.6784 } } as GeolocationPosition),
    );
    const { input, onSelect } = renderPicker();
    await userEvent.click(screen.getByRole('button', { name: 'Use current location' }));
    await waitFor(() => expect(input).toHaveValue('Buckman, Portland, Oregon, United States'));
    // The street-level point from the browser, not the neighborhood's centre.
    expect(onSelect).toHaveBeenCalledExactlyOnceWith({ ...buckman, latitude: 45.5152, longitude: -122.6784 });
    expect(api.sent).toHaveLength(1);
    const [reverse] = api.sent;
    expect(reverse?.path).toBe('/api/places/reverse');
    expect(reverse?.query.get('lat')).toBe('45.5152');
    expect(reverse?.query.get('lon')).toBe('-122.6784');
  });

  it('a refused geolocation is logged and clears the suggestions', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    stubSearch(() => HttpResponse.json([PORTLAND_OR, PORTLAND_ME]));
    setGeolocation((_success, failure) =>
      failure?.({ code: 1, message: 'User denied Geolocation' } as GeolocationPositionError),
    );
    const { input, onSelect } = renderPicker();
    await userEvent.type(input, 'Portl');
    await screen.findByRole('option', { name: 'Portland, Oregon, United States' });

    await userEvent.click(screen.getByRole('button', { name: 'Use current location' }));
    expect(
      await screen.findByText(
        'We could not find your current location. Type your neighborhood, ZIP code or town instead.',
      ),
    ).toBeVisible();
    expect(warn).toHaveBeenCalledWith('Could not use the current location', expect.anything());
    expect(onSelect).not.toHaveBeenCalled();
    // The earlier suggestions are gone: the arrow keys no longer bring them back.
    await userEvent.click(input);
    await userEvent.keyboard('{ArrowDown}');
    expect(screen.queryByRole('option')).not.toBeInTheDocument();
    expect(input).toHaveAttribute('aria-expanded', 'false');
  });

  it('a browser without geolocation is handled the same way', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    // No handler: a request would fail the test.
    renderPicker();
    await userEvent.click(screen.getByRole('button', { name: 'Use current location' }));
    expect(
      await screen.findByText(
        'We could not find your current location. Type your neighborhood, ZIP code or town instead.',
      ),
    ).toBeVisible();
    expect(warn).toHaveBeenCalledOnce();
  });
});
