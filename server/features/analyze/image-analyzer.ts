import { ANALYZE_ERROR_CODES, type AnalysisProvider, type ImageAnalysis } from '#common/schemas/analyze.ts';
import { HttpError } from '../../errors';
import type { DecodedPhoto } from '../../photos/photo-input';

/** What a provider found; the route checks the category against the lists before answering. */
export type Analysis = Omit<ImageAnalysis, 'provider'>;

/** Something that looks at a checked photo and suggests an item's details (setting AI_PROVIDER). */
export interface ImageAnalyzer {
  readonly provider: AnalysisProvider;
  /** Fields it cannot support stay absent; errors are HttpErrors with a clear message. */
  analyze(photo: DecodedPhoto): Promise<Analysis>;
  /** Release what it holds (the OCR worker); called when the app closes. */
  close(): Promise<void>;
}

/** The analysis failed upstream or locally: 502 (a remote service) or 503 (this machine), AI_UNAVAILABLE. */
export function aiUnavailable(
  status: 502 | 503,
  message = 'Photo analysis is unavailable right now. Please fill in the details yourself.',
  cause?: unknown,
): HttpError {
  const error = new HttpError(status, ANALYZE_ERROR_CODES.aiUnavailable, message);
  // Logged with the request (5xx), never sent to the client.
  if (cause !== undefined) error.cause = cause;
  return error;
}
