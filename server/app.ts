import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { BODY_LIMIT_BYTES } from '../common/constants';
import type { Config } from './config';
import type { DatabaseHandle } from './db/client';
import { analyzeRoutes } from './features/analyze/analyze-routes';
import { authRoutes } from './features/auth/auth-routes';
import { googleRoutes } from './features/auth/google-routes';
import { feedCachePlugin } from './features/feed/feed-cache';
import { feedRoutes } from './features/feed/feed-routes';
import { flyerRoutes } from './features/flyer/flyer-routes';
import { gatePlugin } from './features/gate/gate-plugin';
import { healthRoutes } from './features/health/health-routes';
import { itemsRoutes } from './features/items/items-routes';
import { messagesRoutes } from './features/messages/messages-routes';
import { notificationsRoutes } from './features/notifications/notifications-routes';
import { placesRoutes } from './features/places/places-routes';
import { profileRoutes } from './features/profile/profile-routes';
import { savedRoutes } from './features/saved/saved-routes';
import { siteRoutes } from './features/site/site-routes';
import { tradesRoutes } from './features/trades/trades-routes';
import { wantsRoutes } from './features/wants/wants-routes';
import { registerErrorHandler, sendNotFound } from './plugins/error-handler';
import { originCheckPlugin } from './plugins/origin-check';
import { securityPlugin } from './plugins/security';
import { sessionPlugin } from './plugins/session';
import { webPlugin } from './plugins/web';
import { localPhotoStore, PHOTO_URL_PREFIX } from './storage/photo-store';
import './types';

export interface BuildAppOptions {
  config: Config;
  database: DatabaseHandle;
  /** A pino logger; tests leave it out and log nothing. */
  logger?: FastifyBaseLogger;
  /** Serve the web app (built files, or Vite in development). Tests of the API leave it off. */
  serveWeb?: boolean;
  /** Where the built web app is (default dist/web). */
  webDist?: string;
  /** `npm run dev`: Vite's middleware with hot reload instead of the built files, and a CSP that allows it. */
  devServer?: boolean;
}

/** Build the Fastify app: external plugins, then app plugins, then feature routes. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    bodyLimit: BODY_LIMIT_BYTES,
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.requestTimeoutMs,
    return503OnClosing: true,
    trustProxy: false,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('db', database.db);
  registerErrorHandler(app);

  await securityPlugin(app, options.devServer ?? false);
  await app.register(cookie, { secret: config.sessionSecret });
  await app.register(rateLimit, { global: false });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Barterhood API',
        description: 'Neighbours trade goods and services without money.',
        version: '1.0.0',
      },
    },
    transform: jsonSchemaTransform,
  });

  // Order matters: cross-site writes are refused before the gate, and the gate before any session
  // is read, so refused requests never reach the database.
  await originCheckPlugin(app);
  await gatePlugin(app);
  await sessionPlugin(app);
  feedCachePlugin(app);
  await app.register(healthRoutes);
  await app.register(siteRoutes);
  await app.register(authRoutes);
  await app.register(googleRoutes);
  await app.register(messagesRoutes);
  await app.register(notificationsRoutes);
  await app.register(itemsRoutes);
  await app.register(wantsRoutes);
  await app.register(profileRoutes);
  await app.register(placesRoutes);
  await app.register(analyzeRoutes);
  await app.register(tradesRoutes);
  await app.register(feedRoutes);
  await app.register(savedRoutes);
  await app.register(flyerRoutes);

  // Photos are named by their content hash, so they can be cached for a year.
  await app.register(fastifyStatic, {
    root: localPhotoStore(config.dataDir).root,
    prefix: PHOTO_URL_PREFIX,
    decorateReply: false,
    index: false,
    schemaHide: true,
    setHeaders(reply) {
      reply.header('cache-control', 'public, max-age=31536000, immutable');
    },
  });

  app.get('/api/docs', { schema: { hide: true } }, async () => app.swagger());

  if (options.serveWeb) {
    await webPlugin(app, { distDir: options.webDist, devServer: options.devServer ?? false });
  } else {
    app.setNotFoundHandler(sendNotFound);
  }
  return app;
}
