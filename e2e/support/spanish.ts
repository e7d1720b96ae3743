import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { readPo } from '../../scripts/po-file';

/** The Spanish catalogue (ADR 036), read so a journey can find Spanish texts by their English. */
const catalogue = new Map(
  readPo(path.resolve(import.meta.dirname, '../../web/locales/es.po')).map((entry) => [
    entry.id,
    entry.translation,
  ]),
);

/** The Spanish for an English message of the catalogue; throws for one it does not have. */
export function es(english: string): string {
  const spanish = catalogue.get(english);
  if (!spanish) throw new Error(`The Spanish catalogue has no "${english}"`);
  return spanish;
}

/** English messages that read differently in Spanish, without placeholders: none may show in Spanish. */
const ENGLISH_ONLY = [...catalogue]
  .filter(([english, spanish]) => english !== spanish && !/[{}<>]/.test(english))
  .map(([english]) => english);

/**
 * No English message of the catalogue on the page: not as a line of its text (a button, a heading,
 * an option), not as an accessible name, placeholder, title or alternative text, and no sentence of
 * it anywhere in the text.
 */
export async function expectNoEnglish(page: Page, where: string): Promise<void> {
  const found = await page.evaluate((texts) => {
    const text = document.body.innerText;
    const lines = new Set(text.split('\n').map((line) => line.trim()));
    const attributes = new Set(
      [...document.querySelectorAll('[aria-label], [placeholder], [title], img[alt]')].flatMap((element) =>
        ['aria-label', 'placeholder', 'title', 'alt']
          .map((name) => element.getAttribute(name)?.trim())
          .filter((value): value is string => Boolean(value)),
      ),
    );
    return texts.filter(
      (english) =>
        lines.has(english) ||
        attributes.has(english) ||
        (english.split(' ').length >= 3 && text.includes(english)),
    );
  }, ENGLISH_ONLY);
  expect(found, `English on ${where}`).toEqual([]);
}
