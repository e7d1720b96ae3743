import { useMutation } from '@tanstack/react-query';
import { type ImageAnalysis, imageAnalysisSchema } from '#common/schemas/analyze.ts';
import { apiRequest } from '#web/lib/api-client.ts';

/** POST /api/analyze-image (spec section 7): suggested title, description, category and value. */
export async function analyzeImage(image: string): Promise<ImageAnalysis> {
  const response = await apiRequest('POST', '/api/analyze-image', { image });
  return imageAnalysisSchema.parse(await response.json());
}

/** The analysis as a mutation: it reads nothing cached and changes nothing cached. */
export function useAnalyzeImage() {
  return useMutation({ mutationFn: analyzeImage });
}
