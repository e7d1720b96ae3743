// nodemailer (428 KB bundled) is loaded at the first mail, not at every start (ADR 116): the build
// refuses an import() of a bundled CommonJS package, so mailer.ts imports this module instead.
import nodemailer from 'nodemailer';

export const { createTransport } = nodemailer;
