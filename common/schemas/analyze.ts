import { z } from 'zod';
import { LISTING_DESCRIPTION_MAX_LENGTH, LISTING_TITLE_MAX_LENGTH, LISTING_VALUE_MAX } from './listings';
import { textField } from './text';

/** Stable error codes of POST /api/analyze-image (photo errors use PHOTO_ERROR_CODES). */
export const ANALYZE_ERROR_CODES = {
  /** 502 (the configured AI service failed, timed out or answered nonsense) or 503 (local OCR failed). */
  aiUnavailable: 'AI_UNAVAILABLE',
  /** 503: too many photos are waiting for the local analysis; try again shortly. */
  aiBusy: 'AI_BUSY',
} as const;

/** Who answered: `local` (OCR and barcodes on this machine) or `openai` (an OpenAI-compatible service). */
export const ANALYSIS_PROVIDERS = ['local', 'openai'] as const;
export type AnalysisProvider = (typeof ANALYSIS_PROVIDERS)[number];

/** POST /api/analyze-image (spec section 7): the photo as a data URL, checked like an item photo. */
export const analyzeImageRequestSchema = z.strictObject({
  image: textField('Photo', {
    error: 'Send the photo as a data URL in "image"',
    trim: false,
    dataUrl: true,
  }).min(1, 'Send a photo to analyze'),
});

export type AnalyzeImageRequest = z.infer<typeof analyzeImageRequestSchema>;

/** How sure the analysis is of a field, from 0 (a guess) to 1 (certain). */
const confidenceField = z.number().min(0).max(1);

/**
 * What the analysis found. Every field is absent when nothing supported it; `category` is always from
 * the goods list, or from the service list when `isService` is true (present whenever category is).
 */
export const imageAnalysisSchema = z.object({
  title: z.string().min(1).max(LISTING_TITLE_MAX_LENGTH).optional(),
  description: z.string().min(1).max(LISTING_DESCRIPTION_MAX_LENGTH).optional(),
  category: z.string().optional(),
  /** True when the category is from the service list; disambiguates categories in both lists. */
  isService: z.boolean().optional(),
  /** US dollars; only when something supports it (a printed price, or the AI service's estimate). */
  estimatedValue: z.number().min(0).max(LISTING_VALUE_MAX).optional(),
  provider: z.enum(ANALYSIS_PROVIDERS),
  confidence: z.object({
    title: confidenceField.optional(),
    description: confidenceField.optional(),
    category: confidenceField.optional(),
    estimatedValue: confidenceField.optional(),
  }),
});

export type ImageAnalysis = z.infer<typeof imageAnalysisSchema>;

/** True when the analysis filled none of the item's fields. */
export function isEmptyAnalysis(analysis: ImageAnalysis): boolean {
  return (
    analysis.title === undefined &&
    analysis.description === undefined &&
    analysis.category === undefined &&
    analysis.estimatedValue === undefined
  );
}
