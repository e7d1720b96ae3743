import { defineConfig } from '@lingui/cli';
import { formatter } from '@lingui/format-po';

/**
 * Message catalogues (ADR 036): English is the source (the spec's own texts, written in the code with
 * Lingui's macros); Spanish is translated in web/locales/es.po. `npm run i18n:extract` brings the
 * catalogues up to date; the build fails when a message has no Spanish translation.
 */
export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'es'],
  catalogs: [
    {
      path: '<rootDir>/web/locales/{locale}',
      // server/mail: the e-mail's sentences (ADR 060).
      include: ['<rootDir>/web', '<rootDir>/common', '<rootDir>/server/mail'],
      exclude: ['**/*.test.ts', '**/*.test.tsx', '**/node_modules/**'],
    },
  ],
  orderBy: 'message',
  // Origins without line numbers: a catalogue changes only when its messages do.
  format: formatter({ lineNumbers: false }),
});
