import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { siteInfoSchema } from '#common/schemas/site.ts';

/** Public settings the pages show: contact addresses, the public URL, which sign-in ways are on. */
export async function siteRoutes(app: FastifyInstance): Promise<void> {
  const { config } = app;
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/api/site',
      { schema: { tags: ['site'], summary: 'Public site settings', response: { 200: siteInfoSchema } } },
      async () => ({
        publicUrl: config.publicUrl,
        supportEmail: config.supportEmail,
        legalEmail: config.legalEmail,
        licensingEmail: config.licensingEmail,
        demoLogin: config.demoLogin,
        googleSignIn: config.google !== null,
        mapTiles: config.mapTiles
          ? { urlTemplate: config.mapTiles.urlTemplate, attribution: config.mapTiles.attribution }
          : null,
      }),
    );
}
