import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DATA_URL_BODY_LIMIT_BYTES } from '#common/constants.ts';
import { analyzeImageRequestSchema, imageAnalysisSchema } from '#common/schemas/analyze.ts';
import { apiErrorSchema } from '#common/schemas/errors.ts';
import { analyzeImage, createImageAnalyzer } from './analyze-service';
import type { ImageAnalyzer } from './image-analyzer';

/** Test seam: a route plugin over a given analyzer instead of the one the settings choose. */
export interface AnalyzeRoutesOptions {
  analyzer?: ImageAnalyzer;
}

/**
 * POST /api/analyze-image (spec sections 4, 7 and 8): suggest an item's details from its photo.
 * Members only, limited per member (ANALYZE_RATE_LIMIT a minute; per address before the 401), both
 * checked before the body is read. The analyzer is created here and closed with the app.
 */
export async function analyzeRoutes(app: FastifyInstance, options: AnalyzeRoutesOptions = {}): Promise<void> {
  const analyzer = options.analyzer ?? createImageAnalyzer(app.config, app.log);
  app.addHook('onClose', async () => analyzer.close());
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.post(
    '/api/analyze-image',
    {
      // The photo comes as a data URL (spec section 7); every other JSON route has the small limit.
      bodyLimit: DATA_URL_BODY_LIMIT_BYTES,
      config: {
        rateLimit: {
          max: app.config.rateLimits.analyzePerMinute,
          timeWindow: '1 minute',
          keyGenerator: (request: FastifyRequest) => `analyze:${request.user?.id ?? request.ip}`,
        },
      },
      schema: {
        tags: ['listings'],
        summary: "Suggest an item's title, description, category and value from its photo",
        description:
          'The photo is checked like an item photo (400 INVALID_PHOTO or PHOTO_TOO_MANY_PIXELS, 413 ' +
          'PHOTO_TOO_LARGE). Fields the analysis cannot support are left out. 502 AI_UNAVAILABLE when ' +
          'the configured AI service fails or times out; 503 AI_UNAVAILABLE or AI_BUSY for local OCR.',
        body: analyzeImageRequestSchema,
        response: {
          200: imageAnalysisSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          413: apiErrorSchema,
          429: apiErrorSchema,
          502: apiErrorSchema,
          503: apiErrorSchema,
        },
      },
    },
    async (request, _reply) => {
      return analyzeImage(analyzer, request.body.image);
    },
  );
}
