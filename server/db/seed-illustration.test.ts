import { describe, expect, it } from 'vitest';
import { illustrationSvg } from './seed';
import { SEED_MEMBERS } from './seed-data';

/** The demo's illustrations carry no word of the app's own: one image serves every language (ADR 060). */
describe('demo illustrations', () => {
  const listings = SEED_MEMBERS.flatMap((member) => member.items);

  it.each(listings.slice(0, 40).map((listing, index) => [listing.title, listing.category, index] as const))(
    '"%s" (%s) shows its title and nothing else',
    (title, category, index) => {
      const svg = illustrationSvg(title, index);
      const fromXml = (text: string) =>
        text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
      const drawn = [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((match) => fromXml(match[1] ?? ''));
      // Only the title's lines (at most three), in order.
      expect(drawn.length).toBeGreaterThan(0);
      expect(title.startsWith(drawn.join(' '))).toBe(true);
      expect(svg).not.toContain(category.toUpperCase());
    },
  );
});
