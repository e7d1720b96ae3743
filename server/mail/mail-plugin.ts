import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
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
  app.addHook('onClose', () => mailer.close());
}
