import { z } from 'zod';

/** The most offers, and the most wants, a community flyer lists. */
export const FLYER_NEIGHBORHOOD_LIMIT = 6;

/**
 * One current offer or want as a printed flyer shows it: what, and whose by first name only.
 * No addresses, e-mails, coordinates or last names (issue 8).
 */
export const flyerListingSchema = z.object({
  title: z.string(),
  category: z.string(),
  isService: z.boolean(),
  /** Null when the member gave no first name; the flyer says "a neighbor". */
  firstName: z.string().nullable(),
});

/** GET /api/flyer/neighborhood: the newest offers and wants of other members near the asking member. */
export const flyerNeighborhoodSchema = z.object({
  offers: z.array(flyerListingSchema).max(FLYER_NEIGHBORHOOD_LIMIT),
  wants: z.array(flyerListingSchema).max(FLYER_NEIGHBORHOOD_LIMIT),
});

export type FlyerListing = z.infer<typeof flyerListingSchema>;
export type FlyerNeighborhood = z.infer<typeof flyerNeighborhoodSchema>;
