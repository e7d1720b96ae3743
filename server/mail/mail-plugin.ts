import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { checkMailCatalogues, readMailCataloguesInPool } from './mail-i18n';
import { createMailer, type Mailer } from './mailer';

declare module 'fastify' {
  interface FastifyInstance {
    /** Outgoing e-mail (server/mail/mailer.ts): SMTP_URL, or DATA_DIR/outbox. */
    mailer: Mailer;
  }
}

/** The app's mailer, closed with the app. */
export function mailPlugin(app: FastifyInstance): void {
  const { config } = app;
  const mailer = createMailer({
    smtpUrl: config.mail.smtpUrl,
    from: config.mail.from,
    dataDir: config.dataDir,
    log: app.log as unknown as Logger,
    logLinks: config.env === 'development',
  });
  app.decorate('mailer', mailer);
  // The e-mail's catalogues (web/locales, ADR 060): a server without them does not start; they are
  // parsed in the worker pool once it listens (ADR 101), off the start's busy cores.
  app.addHook('onReady', async () => checkMailCatalogues());
  app.addHook('onListen', async () => {
    readMailCataloguesInPool().catch((error: unknown) => {
      app.log.warn(
        { err: error },
        'could not read the e-mail catalogues in the pool; each is read at its first mail',
      );
    });
  });
  app.addHook('onClose', () => mailer.close());
}
