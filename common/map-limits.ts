/**
 * The maps' limits without zod (ADR 086): the web's map chunks read them, and common/schemas/maps.ts
 * checks requests against them (ADR 033: zod stays off the chunks that need only plain values).
 */

/** Widest box the base map answers for, in degrees of latitude or longitude (a 50-mile radius fits). */
export const BASE_MAP_MAX_SPAN = 4;
