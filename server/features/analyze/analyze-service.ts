import type { FastifyBaseLogger } from 'fastify';
import { isCategoryAllowed } from '#common/categories.ts';
import type { ImageAnalysis } from '#common/schemas/analyze.ts';
import type { Config } from '../../config';
import { decodeImageDataUrl } from '../../photos/photo-input';
import type { Analysis, ImageAnalyzer } from './image-analyzer';
import { LocalImageAnalyzer } from './local-analyzer';
import { OpenAiImageAnalyzer } from './openai-analyzer';

/** The analyzer the settings choose (AI_PROVIDER, OPENAI_*). */
export function createImageAnalyzer(config: Config, log: FastifyBaseLogger): ImageAnalyzer {
  const { provider, baseUrl, apiKey, model, timeoutMs } = config.ai;
  if (provider === 'openai' && baseUrl && model) {
    return new OpenAiImageAnalyzer({
      baseUrl,
      apiKey,
      model,
      timeoutMs,
      onError: (error, what) => log.warn({ err: error, what }, 'photo analysis service failed'),
    });
  }
  return new LocalImageAnalyzer();
}

/**
 * The answer as the API returns it: the provider's name, confidence only for fields that are there,
 * and a category only when it is in the list that applies (goods unless isService).
 */
export function presentAnalysis(analysis: Analysis, provider: ImageAnalysis['provider']): ImageAnalysis {
  const { title, description, estimatedValue, confidence } = analysis;
  const answer: ImageAnalysis = { provider, confidence: {} };
  const keep = <K extends keyof ImageAnalysis['confidence']>(field: K, present: boolean) => {
    const value = confidence[field];
    if (present && value !== undefined) answer.confidence[field] = value;
  };
  if (title) answer.title = title;
  if (description) answer.description = description;
  const isService = analysis.isService ?? false;
  if (analysis.category && isCategoryAllowed(analysis.category, isService)) {
    answer.category = analysis.category;
    answer.isService = isService;
  }
  if (estimatedValue !== undefined) answer.estimatedValue = estimatedValue;
  keep('title', answer.title !== undefined);
  keep('description', answer.description !== undefined);
  keep('category', answer.category !== undefined);
  keep('estimatedValue', answer.estimatedValue !== undefined);
  return answer;
}

/** Check the photo exactly like an item photo (decodeImageDataUrl), then analyse it. */
export async function analyzeImage(analyzer: ImageAnalyzer, dataUrl: string): Promise<ImageAnalysis> {
  const photo = await decodeImageDataUrl(dataUrl);
  return presentAnalysis(await analyzer.analyze(photo), analyzer.provider);
}
