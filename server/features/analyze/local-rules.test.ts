import { describe, expect, it } from 'vitest';
import { isCategoryAllowed } from '#common/categories.ts';
import { categorize } from './categorize';
import { analysisFrom, describeItem, priceFrom, titleFrom } from './local-analyzer';
import type { OcrLine } from './ocr';

/** An OCR line at `top` with text `height` px tall. */
const line = (text: string, height: number, top: number, confidence = 92): OcrLine => ({
  text,
  height,
  top,
  confidence,
  left: 10,
  width: 400,
});

describe('categorize', () => {
  it('knows a book by its ISBN barcode, whatever the words', () => {
    expect(categorize('Makita', { isbn: true })).toEqual({
      category: 'books',
      isService: false,
      confidence: 0.95,
    });
  });

  it('knows books by their words', () => {
    expect(categorize('The Road\nA Novel\nPaperback edition')?.category).toBe('books');
  });

  it('knows tools by their maker, however it is written', () => {
    for (const brand of [
      'DeWalt',
      'MAKITA',
      'Bosch',
      'Milwaukee',
      'Ryobi',
      'Black+Decker',
      'Black & Decker',
      'STANLEY',
    ]) {
      expect(categorize(`${brand}\n18V`)?.category, brand).toBe('tools');
    }
  });

  it('uses the keyword table for other goods', () => {
    expect(categorize('Wireless Bluetooth Speaker')?.category).toBe('electronics');
    expect(categorize('LEGO City 60337')?.category).toBe('toys+games');
    expect(categorize('PlayStation 5')?.category).toBe('video gaming');
    expect(categorize('Electric kettle 1.7 L')?.category).toBe('appliances');
  });

  it('names a service category only for service words, and says so', () => {
    expect(categorize('Guitar lessons for beginners')).toMatchObject({
      category: 'lessons',
      isService: true,
    });
  });

  it('covers what neighbours commonly list, plurals too (issue 28)', () => {
    const cases: Array<[string, string, boolean]> = [
      ['Coleman 4-person camping tent', 'rvs+camp', false],
      ['Table lamp with linen shade', 'household', false],
      ['Set of 6 dinner plates', 'household', false],
      ['Michelin winter tires 205/55 R16', 'wheels+tires', false],
      ['Sea kayak with paddle', 'boats', false],
      ['Oak dining table', 'furniture', false],
      ['Garden rake and shovel', 'farm+garden', false],
      ['Two concert tickets', 'tickets', false],
      ['Weekly lawn mowing', 'farm+garden', true],
      ['House cleaning, 3 hours', 'household', true],
      ['Handyman: small home repairs', 'skilled trade', true],
      ['Spanish translation and proofreading', 'write/ed/tran', true],
    ];
    for (const [text, category, isService] of cases) {
      expect(categorize(text), text).toMatchObject({ category, isService });
    }
    // Every category a rule names is in the list it belongs to.
    for (const text of ['tent', 'lamp', 'kayak', 'lawn mowing']) {
      const guess = categorize(text);
      expect(guess && isCategoryAllowed(guess.category, guess.isService), text).toBe(true);
    }
  });

  it('matches whole words only', () => {
    // "sawdust" is not a saw, "drilled" not a drill.
    expect(categorize('sawdust drilled')).toBeNull();
  });

  it('says nothing when nothing points anywhere or two categories tie', () => {
    expect(categorize('Hello Neighbour')).toBeNull();
    expect(categorize('')).toBeNull();
    expect(categorize('drill guitar')).toBeNull();
  });
});

describe('title and price from OCR lines', () => {
  it('takes the tallest text as the title, cleaned up', () => {
    const lines = [line('— THE HOBBIT —', 90, 200, 95), line('J. R. R. Tolkien', 50, 400)];
    expect(titleFrom(lines)).toEqual({ title: 'The Hobbit', confidence: 0.86 });
  });

  it('adds the line under a lone brand word, but not under a one-word book title', () => {
    const lines = [
      line('Makita', 100, 50),
      line('Angle Grinder 115mm', 60, 180),
      line('Made in Japan', 20, 400),
    ];
    expect(titleFrom(lines)?.title).toBe('Makita Angle Grinder 115mm');
    expect(titleFrom(lines, { book: true })?.title).toBe('Makita');
  });

  it('never makes a title of a price or barcode digits', () => {
    expect(titleFrom([line('$24.99', 120, 10), line('9780261102217', 80, 200)])).toBeNull();
  });

  it('reads a printed dollar price and nothing that only looks like one', () => {
    expect(priceFrom([line('Only $1,299', 40, 10)])).toBeNull();
    expect(priceFrom([line('Price $12.50', 40, 10, 90)])).toEqual({ value: 12.5, confidence: 0.45 });
    expect(priceFrom([line('RRP 12.50', 40, 10)])).toBeNull();
  });

  it('fills nothing without text or a barcode, and gives confidence only for filled fields', () => {
    expect(analysisFrom({ lines: [], barcode: null })).toEqual({ confidence: {} });
  });

  it('leaves the description to the member for a product barcode alone, without inventing a title', () => {
    const result = analysisFrom({
      lines: [],
      barcode: { digits: '5012345678900', format: 'EAN-13', isbn: false },
    });
    expect(result.title).toBeUndefined();
    expect(result.category).toBeUndefined();
    expect(result.description).toBeUndefined();
    expect(result.confidence.description).toBeUndefined();
  });
});

describe('descriptions as a neighbor writes them (issue 17)', () => {
  it('puts the model before a title printed in capitals: "Yamaha FG800 acoustic guitar."', () => {
    const lines = [
      line('ACOUSTIC GUITAR', 60, 10),
      line('Yamaha FG800', 30, 80),
      line('Made in China', 12, 300),
    ];
    const result = analysisFrom({ lines, barcode: null });
    expect(result.title).toBe('Acoustic Guitar');
    expect(result.description).toBe('Yamaha FG800 acoustic guitar.');
  });

  it('names a book and its author, then its ISBN', () => {
    const lines = [line('THE HOBBIT', 60, 10), line('J.R.R. Tolkien', 25, 90)];
    const barcode = { digits: '9780261102217', format: 'EAN-13' as const, isbn: true };
    expect(analysisFrom({ lines, barcode }).description).toBe(
      'The Hobbit by J.R.R. Tolkien. ISBN 9780261102217.',
    );
  });

  it('keeps a title already naming brand and model as it is', () => {
    const lines = [
      line('DeWalt', 50, 10),
      line('20V MAX Cordless Drill', 40, 70),
      line('Now $89.99', 20, 140),
    ];
    expect(analysisFrom({ lines, barcode: null }).description).toBe('DeWalt 20V MAX Cordless Drill.');
  });

  it('never speaks of colours, orientation or "text on the item"', () => {
    const lines = [line('BLUE SKY YOGA MAT', 50, 10), line('Extra thick 6mm', 20, 70)];
    const description = describeItem({ lines, barcode: null }, 'Blue Sky Yoga Mat') ?? '';
    expect(description).toBe('Extra thick 6mm blue sky yoga mat.');
    expect(description).not.toMatch(/Mostly|photo|Text on the item|portrait|landscape|square/);
  });
});
