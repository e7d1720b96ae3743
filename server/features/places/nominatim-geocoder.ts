import { setTimeout as sleep } from 'node:timers/promises';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { Place } from '#common/schemas/places.ts';
import { HttpError } from '../../errors';
import type { Point } from '../../geo/earth';
import { type Geocoder, geocoderUnavailable } from './geocoder';

export interface NominatimOptions {
  /** NOMINATIM_URL, e.g. https://nominatim.example.org (a path prefix is kept). */
  baseUrl: string;
  /** Nominatim's usage policy asks for an identifying User-Agent. */
  userAgent: string;
  /** Least time between two requests upstream (the policy: at most one per second). */
  minIntervalMs?: number;
  /** How long one upstream request may take. */
  timeoutMs?: number;
  /** A request that would wait longer than this for its turn fails at once instead. */
  maxQueueWaitMs?: number;
  cacheEntries?: number;
  cacheTtlMs?: number;
  /** For logging upstream failures (the response only says the service is unavailable). */
  onError?: (error: unknown, what: string) => void;
}

const DAY_MS = 24 * 60 * 60 * 1000;

// Nominatim's JSON format: coordinates are strings; osm_type and osm_id name the object stably
// (place_id changes when the service re-imports its data).
const nominatimPlaceSchema = z.object({
  place_id: z.number(),
  display_name: z.string(),
  lat: z.string(),
  lon: z.string(),
  osm_type: z.string().optional(),
  osm_id: z.number().optional(),
});
const searchResponseSchema = z.array(z.unknown());
const reverseResponseSchema = z.union([z.object({ error: z.string() }), nominatimPlaceSchema]);

type NominatimPlace = z.infer<typeof nominatimPlaceSchema>;

function toPlace(raw: NominatimPlace): Place | null {
  const latitude = Number(raw.lat);
  const longitude = Number(raw.lon);
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return null;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  const osmType = raw.osm_type?.[0]?.toUpperCase();
  const id =
    osmType && raw.osm_id !== undefined ? `osm:${osmType}${raw.osm_id}` : `nominatim:${raw.place_id}`;
  return { id, displayName: raw.display_name, latitude, longitude };
}

/** Half the side of the search viewbox, in degrees. */
const VIEWBOX_HALF_DEGREES = 0.5;

/** Nominatim's viewbox (left,top,right,bottom) around a point rounded to 0.1 degree. */
export function viewboxAround(origin: Point): string {
  const lat = Math.round(origin.latitude * 10) / 10;
  const lon = Math.round(origin.longitude * 10) / 10;
  const clampLat = (v: number) => Math.max(-90, Math.min(90, v));
  const clampLon = (v: number) => Math.max(-180, Math.min(180, v));
  return [
    clampLon(lon - VIEWBOX_HALF_DEGREES),
    clampLat(lat + VIEWBOX_HALF_DEGREES),
    clampLon(lon + VIEWBOX_HALF_DEGREES),
    clampLat(lat - VIEWBOX_HALF_DEGREES),
  ]
    .map((v) => Number(v.toFixed(1)))
    .join(',');
}

/**
 * GEOCODER=nominatim: forwards to a Nominatim-compatible service, within its usage policy: an
 * identifying User-Agent, at most one request per second (callers queue for their turn), answers
 * cached, a timeout on every request. Identical look-ups in flight at once share one request.
 */
export class NominatimGeocoder implements Geocoder {
  private readonly base: string;
  private readonly minIntervalMs: number;
  private readonly timeoutMs: number;
  private readonly maxQueueWaitMs: number;
  /** Answers by key, boxed: lru-cache keeps no null, and "no place here" is an answer too. */
  private readonly cache: LRUCache<string, { value: Place[] | Place | null }>;
  private readonly inFlight = new Map<string, Promise<unknown>>();
  /** When the next caller's turn is expected to come (to refuse callers who would wait too long). */
  private nextSlot = 0;
  /** When the last request went out, and the chain of turns taken (in arrival order). */
  private lastSent = Number.NEGATIVE_INFINITY;
  private turns: Promise<void> = Promise.resolve();

  constructor(private readonly options: NominatimOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.minIntervalMs = options.minIntervalMs ?? 1000;
    this.timeoutMs = options.timeoutMs ?? 5000;
    this.maxQueueWaitMs = options.maxQueueWaitMs ?? 10_000;
    this.cache = new LRUCache({ max: options.cacheEntries ?? 1000, ttl: options.cacheTtlMs ?? DAY_MS });
  }

  async search(query: string, limit: number, origin: Point | null = null): Promise<Place[]> {
    const text = query.trim().replace(/\s+/g, ' ');
    // Near the member: Nominatim prefers results inside the viewbox (bounded=0 keeps the others). The
    // box is about 110 km across, centred on the member's point rounded to 0.1 degree, so members of
    // one area share cached answers and the upstream service never learns a member's exact point.
    const box = origin ? viewboxAround(origin) : null;
    const key = `search:${text.toLowerCase()}${box ? `@${box}` : ''}`;
    const places = await this.cached(key, async () => {
      const params = new URLSearchParams({ format: 'json', addressdetails: '1', limit: '5', q: text });
      if (box) {
        params.set('viewbox', box);
        params.set('bounded', '0');
      }
      const body = searchResponseSchema.parse(await this.request('search', params));
      // One malformed entry should not hide the others.
      return body.flatMap((entry) => {
        const parsed = nominatimPlaceSchema.safeParse(entry);
        const place = parsed.success ? toPlace(parsed.data) : null;
        return place ? [place] : [];
      });
    });
    return (places as Place[]).slice(0, limit);
  }

  async reverse(latitude: number, longitude: number): Promise<Place | null> {
    // About 100 m: closer points share an answer, which is a town anyway.
    const key = `reverse:${latitude.toFixed(3)},${longitude.toFixed(3)}`;
    const place = await this.cached(key, async () => {
      // zoom=14 asks for the neighborhood (not the street address): "use current location" keeps the
      // member's own point, and the name only has to be one they recognise.
      const params = new URLSearchParams({
        format: 'json',
        lat: String(latitude),
        lon: String(longitude),
        zoom: '14',
      });
      const body = reverseResponseSchema.parse(await this.request('reverse', params));
      return 'error' in body ? null : toPlace(body);
    });
    return place as Place | null;
  }

  private async cached<V extends Place[] | Place | null>(key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit.value as V;
    const pending = this.inFlight.get(key);
    if (pending) return pending as Promise<V>;
    const promise = (async () => {
      try {
        const value = await load();
        this.cache.set(key, { value });
        return value;
      } catch (error) {
        if (error instanceof HttpError) throw error;
        this.options.onError?.(error, key);
        throw geocoderUnavailable();
      } finally {
        this.inFlight.delete(key);
      }
    })();
    this.inFlight.set(key, promise);
    return promise;
  }

  /**
   * Send in this request's turn: one at a time in the order callers arrive, each sent at least an
   * interval after the one before was actually sent (a turn that started late cannot shorten the
   * next gap). `send` is called in the turn itself and the send time noted right after it has
   * started, so nothing between the two can shorten a gap. Callers whose turn is estimated too far
   * away are refused at once.
   */
  private async inTurn<T>(send: () => Promise<T>): Promise<T> {
    const now = Date.now();
    const slot = Math.max(now, this.nextSlot);
    if (slot - now > this.maxQueueWaitMs) {
      throw geocoderUnavailable('Location search is busy right now. Please try again in a moment.');
    }
    this.nextSlot = slot + this.minIntervalMs;
    let sent: Promise<T> | undefined;
    const turn = this.turns.then(async () => {
      // Timers can fire a millisecond or two early by the wall clock: wait until the gap is whole.
      let wait = this.lastSent + this.minIntervalMs - Date.now();
      while (wait > 0) {
        await sleep(wait);
        wait = this.lastSent + this.minIntervalMs - Date.now();
      }
      // Never throws into the chain of turns: a failed send is this caller's failure alone.
      try {
        sent = send();
      } catch (error) {
        sent = Promise.reject(error);
      }
      // Noted once the request has gone out (fetch starts it synchronously): the next one waits a
      // whole interval from then, however long this one took to build its arguments and start.
      this.lastSent = Date.now();
    });
    this.turns = turn;
    await turn;
    return sent as Promise<T>;
  }

  private async request(path: 'search' | 'reverse', params: URLSearchParams): Promise<unknown> {
    const response = await this.inTurn(() =>
      fetch(`${this.base}/${path}?${params}`, {
        headers: { 'user-agent': this.options.userAgent, accept: 'application/json' },
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'error',
      }),
    );
    if (!response.ok) {
      // Drain the body so the connection can be reused.
      await response.body?.cancel();
      throw new Error(`Nominatim ${path} answered ${response.status}`);
    }
    return response.json();
  }
}
