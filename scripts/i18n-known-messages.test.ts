import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { collectKnownMessages, KNOWN_MESSAGES_FILE, renderKnownMessages } from './i18n-known-messages';

describe('the English texts the server sends, listed for the catalogues (ADR 036)', () => {
  const messages = collectKnownMessages();

  it('finds error, validation and category texts, with constants written out', () => {
    expect(messages).toContain('Incorrect password. Please try again.');
    expect(messages).toContain('Title is required');
    expect(messages).toContain('Title must be at most 120 characters');
    expect(messages).toContain('Please sign in to continue.');
    expect(messages).toContain('arts+crafts');
  });

  it("leaves out developers' texts: settings, lower-case schema texts", () => {
    expect(messages.some((text) => /^[A-Z][A-Z0-9]*_/.test(text))).toBe(false);
    expect(messages.some((text) => text.startsWith('sort must be one of'))).toBe(false);
  });

  it('is up to date in web/i18n/known-messages.generated.ts (npm run i18n:known)', () => {
    expect(readFileSync(KNOWN_MESSAGES_FILE, 'utf8')).toBe(renderKnownMessages(messages));
  });
});
