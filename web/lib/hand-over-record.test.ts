import { describe, expect, it } from 'vitest';
import { activateLocale } from '#web/i18n/i18n.ts';
import { handOverRecordText } from './hand-over-record';

// "Kept N of M hand-overs" (issue 30, ADR 079): the exact English, Spanish by the count,
// nothing while none is due.

describe('handOverRecordText', () => {
  it('says the record in English as the issue writes it, and nothing while none is due', async () => {
    await activateLocale('en');
    expect(handOverRecordText({ kept: 0, due: 1 })).toBe('Kept 0 of 1 hand-overs');
    expect(handOverRecordText({ kept: 19, due: 20 })).toBe('Kept 19 of 20 hand-overs');
    expect(handOverRecordText({ kept: 0, due: 0 })).toBeNull();
    expect(handOverRecordText(undefined)).toBeNull();
  });

  it('in Spanish, by the count', async () => {
    await activateLocale('es');
    expect(handOverRecordText({ kept: 0, due: 1 })).toBe('Cumplió 0 de 1 entrega');
    expect(handOverRecordText({ kept: 19, due: 20 })).toBe('Cumplió 19 de 20 entregas');
    await activateLocale('en');
  });
});
