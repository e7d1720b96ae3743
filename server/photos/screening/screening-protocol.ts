/** Messages between the photo screener and its worker thread (ADR 027). */

/** The classifier's input: RGB pixels of a SCREEN_PX x SCREEN_PX square. */
export const SCREEN_PX = 224;

/** The classes of NSFWJS's model. */
export type ScreenClass = 'Drawing' | 'Hentai' | 'Neutral' | 'Porn' | 'Sexy';

export interface ScreenRequest {
  id: number;
  /** SCREEN_PX * SCREEN_PX * 3 bytes, RGB. */
  pixels: Uint8Array;
}

export type ScreenReply =
  | { id: number; scores: Partial<Record<ScreenClass, number>>; error?: undefined }
  | { id: number; error: string; scores?: undefined };
