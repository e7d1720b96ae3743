import { afterEach, describe, expect, it } from 'vitest';
import { messages as spanish } from '../locales/es.po';
import { i18n } from './i18n';
import { formatPlaceName } from './place-names';

i18n.load('es', spanish);
afterEach(() => i18n.activate('en'));

describe('formatPlaceName', () => {
  it.each([
    ['Buckman, Portland, Oregon, United States', 'Buckman, Portland, Oregon, Estados Unidos'],
    ['97214, Portland, Oregon, United States', '97214, Portland, Oregon, Estados Unidos'],
    ['Charlotte, North Carolina, United States', 'Charlotte, Carolina del Norte, Estados Unidos'],
    ['New York, New York, United States', 'New York, Nueva York, Estados Unidos'],
    ['Vancouver, British Columbia, Canada', 'Vancouver, Columbia Británica, Canadá'],
    ['London, England, United Kingdom', 'London, Inglaterra, Reino Unido'],
    ['Paris, France', 'Paris, Francia'],
    // Not ending in a country: as written (typed by hand, the demo's "Buckman, Portland").
    ['Buckman, Portland', 'Buckman, Portland'],
    ['Springfield', 'Springfield'],
    ['', ''],
  ])('%s reads "%s" in Spanish', (english, expected) => {
    expect(formatPlaceName(english, 'es')).toBe(expected);
  });

  it('follows the active language, and leaves English as the server wrote it', () => {
    const place = 'Hawthorne, Portland, Oregon, United States';
    expect(formatPlaceName(place)).toBe(place);
    i18n.activate('es');
    expect(formatPlaceName(place)).toBe('Hawthorne, Portland, Oregon, Estados Unidos');
    // Already in Spanish: unchanged (a second pass does nothing).
    expect(formatPlaceName(formatPlaceName(place))).toBe('Hawthorne, Portland, Oregon, Estados Unidos');
  });
});
