import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPo } from '../../scripts/po-file';

/**
 * The Spanish catalogue (ADR 036) answers every message with the same placeholders, tags and plural
 * cases as the English, so no sentence shows "{name}", loses a link, or falls back to English.
 * (`vite build` also refuses a catalogue with a message missing.)
 */

/** Placeholder names, element tags and plural/select case keys of an ICU message, sorted. */
function skeleton(message: string): string[] {
  const names = [...message.matchAll(/\{\s*([A-Za-z0-9_]+)\s*(?:[,}])/g)].map((match) => `{${match[1]}}`);
  const tags = [...message.matchAll(/<\/?(\d+)\/?>/g)].map((match) => match[0]);
  const plural = /\{\s*\w+\s*,\s*plural\s*,/.test(message)
    ? ['plural', ...(message.includes('#') ? ['#'] : [])]
    : [];
  return [...new Set([...names, ...tags, ...plural])].sort();
}

const locales = path.resolve(import.meta.dirname, '../locales');

describe('the Spanish catalogue', () => {
  const english = readPo(path.join(locales, 'en.po'));
  const spanish = readPo(path.join(locales, 'es.po'));

  it('has every English message, each translated', () => {
    expect(english.length).toBeGreaterThan(200);
    expect(spanish.map((entry) => entry.id).sort()).toEqual(english.map((entry) => entry.id).sort());
    const untranslated = spanish.filter((entry) => entry.translation.trim() === '').map((entry) => entry.id);
    expect(untranslated).toEqual([]);
  });

  it('keeps each message’s placeholders, tags and plural', () => {
    const broken = spanish
      .filter((entry) => JSON.stringify(skeleton(entry.id)) !== JSON.stringify(skeleton(entry.translation)))
      .map((entry) => `${entry.id} -> ${entry.translation}`);
    expect(broken).toEqual([]);
  });

  it('reads a placeholder and a plural as the test expects (the check can fail)', () => {
    expect(skeleton('Message {name} about <0>{count, plural, one {# item} other {# items}}</0>')).toEqual([
      '#',
      '</0>',
      '<0>',
      'plural',
      '{count}',
      '{name}',
    ]);
    expect(skeleton('Mensaje para {nombre}')).not.toEqual(skeleton('Message {name}'));
  });
});
