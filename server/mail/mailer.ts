import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';

/** One message to one member. */
export interface OutgoingMail {
  to: string;
  subject: string;
  /** Plain text; every link on a line of its own. */
  text: string;
  /** Extra headers (List-Unsubscribe and the like). */
  headers?: Record<string, string>;
}

/** Sends the app's e-mail (ADR 024). */
export interface Mailer {
  /** Where mail goes: 'smtp' (SMTP_URL) or 'outbox' (DATA_DIR/outbox; its links logged in development). */
  readonly kind: 'smtp' | 'outbox';
  /** `log`: where the outbox notes the message (a request's logger, so the line has its id). */
  send(mail: OutgoingMail, log?: MailLog): Promise<void>;
  close(): void;
}

/** What the mailer logs through: pino's or Fastify's logger. */
export type MailLog = Pick<Logger, 'info'>;

export interface MailerOptions {
  /** smtp:// or smtps:// URL; unset: the outbox directory. */
  smtpUrl?: string | undefined;
  /** The From header. */
  from: string;
  dataDir: string;
  log: MailLog;
  /**
   * The outbox logs each message's links (a reset or confirmation link signs its holder in): only
   * for a local setup (NODE_ENV=development), whose log only its owner reads. Elsewhere the log
   * names the file, which only someone who can read DATA_DIR can open (ADR 053).
   */
  logLinks: boolean;
  /** Longest wait for the SMTP server, per phase (connect, greeting, each command). */
  timeoutMs?: number;
}

const LINK = /https?:\/\/\S+/g;

/**
 * The app's mailer: through SMTP when SMTP_URL is set (nodemailer), else each message is written
 * to DATA_DIR/outbox/ as an .eml file and logged (with its links in development), so a local setup
 * works with no mail server. Sending never throws at the caller for a delivery problem it cannot fix: callers decide
 * (account mail is sent after the change is committed, and a failure is logged).
 */
export function createMailer(options: MailerOptions): Mailer {
  const timeout = options.timeoutMs ?? 10_000;
  if (options.smtpUrl) {
    const smtpUrl = options.smtpUrl;
    const transport = once(async () =>
      (await import('./nodemailer')).createTransport(smtpUrl, {
        from: options.from,
        connectionTimeout: timeout,
        greetingTimeout: timeout,
        socketTimeout: timeout,
      }),
    );
    return {
      kind: 'smtp',
      async send(mail) {
        await (await transport.get()).sendMail({ from: options.from, ...mail });
      },
      close: () => transport.ifMade((made) => made.close()),
    };
  }
  const outbox = path.join(options.dataDir, 'outbox');
  const builder = once(async () =>
    (await import('./nodemailer')).createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
  );
  return {
    kind: 'outbox',
    async send(mail, log = options.log) {
      const built = await (await builder.get()).sendMail({ from: options.from, ...mail });
      await mkdir(outbox, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      const file = path.join(outbox, name);
      // Written under another name, then renamed: whoever reads the outbox (a person, a test, a
      // watcher) never sees a half-written .eml.
      await writeFile(`${file}.part`, built.message as Buffer, { mode: 0o600 });
      await rename(`${file}.part`, file);
      // No address in the log (docs/security.md): the file has it. No live link outside development.
      log.info(
        options.logLinks
          ? { file, subject: mail.subject, links: mail.text.match(LINK) ?? [] }
          : { file, subject: mail.subject },
        'mail written to the outbox',
      );
    },
    close: () => builder.ifMade((made) => made.close()),
  };
}

/**
 * A transport made at the first mail (nodemailer is loaded then, ADR 116), and the same one after;
 * closing closes it only if it was made.
 */
function once<T>(make: () => Promise<T>): { get(): Promise<T>; ifMade(then: (made: T) => void): void } {
  let made: Promise<T> | null = null;
  return {
    get() {
      if (made) return made;
      const making = make();
      made = making;
      // A failed load is tried again at the next mail.
      making.catch(() => {
        if (made === making) made = null;
      });
      return making;
    },
    ifMade(then) {
      void made?.then(then, () => {});
    },
  };
}
