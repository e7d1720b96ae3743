import type { BaseMap } from '#common/schemas/maps.ts';
import { apiGet } from './api-client';

/** GET /api/places/base-map for a box (ADR 086): what the maps draw without a tile server. */
export function loadBaseMap(box: { south: number; west: number; north: number; east: number }) {
  const params = new URLSearchParams({
    south: String(box.south),
    west: String(box.west),
    north: String(box.north),
    east: String(box.east),
  });
  return apiGet<BaseMap>(`/api/places/base-map?${params}`);
}
