import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message the test SMTP server received. */
export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
  /** The links in the text, in order. */
  links: string[];
}

/**
 * A real SMTP server on loopback for tests (smtp-server, nodemailer's own): the app sends to it over
 * SMTP as it would to any mail server, and the test reads what arrived.
 */
export async function startTestSmtp(): Promise<{
  url: string;
  received: ReceivedMail[];
  /** The first message to `address` (lower case) that `match` accepts; waits up to `ms`. */
  waitFor: (address: string, match?: (mail: ReceivedMail) => boolean, ms?: number) => Promise<ReceivedMail>;
  /** Messages to `address` so far. */
  to: (address: string) => ReceivedMail[];
  close: () => Promise<void>;
}> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed: ParsedMail) => {
          const text = parsed.text ?? '';
          received.push({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
            subject: parsed.subject ?? '',
            text,
            links: text.match(/https?:\/\/\S+/g) ?? [],
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const to = (address: string) => received.filter((mail) => mail.to.includes(address.toLowerCase()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    to,
    async waitFor(address, match = () => true, ms = 5_000) {
      const started = Date.now();
      for (;;) {
        const found = to(address).find(match);
        if (found) return found;
        if (Date.now() - started > ms) throw new Error(`no mail to ${address} within ${ms} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
