import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { loadMailCatalogues } from './mail-i18n';
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
  // The e-mail's catalogues (web/locales, ADR 060) are read before the server listens: a mail sent
  // later does not wait for them, and a server without them does not start.
  app.addHook('onReady', async () => loadMailCatalogues());
  app.addHook('onClose', () => mailer.close());
}
