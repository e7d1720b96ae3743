import { z } from 'zod';

/** GET /api/site: public settings the pages show (contact addresses, public URL, demo login). */
export const siteInfoSchema = z.object({
  publicUrl: z.string(),
  supportEmail: z.string(),
  legalEmail: z.string(),
  licensingEmail: z.string(),
  demoLogin: z.boolean(),
  googleSignIn: z.boolean(),
  /** MAP_TILE_URL and MAP_TILE_ATTRIBUTION: the maps' tile server; null: no map, the area in words. */
  mapTiles: z.object({ urlTemplate: z.string(), attribution: z.string() }).nullable(),
});

export type SiteInfo = z.infer<typeof siteInfoSchema>;
