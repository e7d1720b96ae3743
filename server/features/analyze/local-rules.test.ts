import { describe, expect, it } from 'vitest';
import { categorize } from './categorize';
import { colourName, dominantColours, listInWords, orientationOf } from './colours';
import { analysisFrom, priceFrom, titleFrom } from './local-analyzer';
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

describe('colours and orientation', () => {
  it('names colours in everyday words', () => {
    expect(colourName(0, 0, 0)).toBe('black');
    expect(colourName(255, 255, 255)).toBe('white');
    expect(colourName(128, 128, 128)).toBe('grey');
    expect(colourName(200, 30, 30)).toBe('red');
    expect(colourName(46, 125, 50)).toBe('green');
    expect(colourName(30, 90, 200)).toBe('blue');
    expect(colourName(31, 58, 95)).toBe('navy');
    expect(colourName(244, 236, 216)).toBe('beige');
    expect(colourName(250, 200, 20)).toBe('yellow');
    expect(colourName(110, 60, 20)).toBe('brown');
  });

  it('lists the colours that cover a good share of the picture', () => {
    const pixels = Buffer.alloc(10 * 3);
    pixels.fill(255, 0, 7 * 3); // 7 white pixels, 3 black
    expect(dominantColours({ pixels, width: 10, height: 1 })).toEqual(['white', 'black']);
    expect(listInWords(['beige', 'navy', 'black'])).toBe('beige, navy and black');
    expect(listInWords([])).toBe('');
  });

  it('tells portrait from landscape', () => {
    expect(orientationOf(800, 1100)).toBe('portrait');
    expect(orientationOf(1200, 600)).toBe('landscape');
    expect(orientationOf(1000, 950)).toBe('square');
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
    expect(analysisFrom({ lines: [], barcode: null, colours: ['green'], width: 900, height: 600 })).toEqual({
      confidence: {},
    });
  });

  it('describes a barcode alone without inventing a title', () => {
    const result = analysisFrom({
      lines: [],
      barcode: { digits: '5012345678900', format: 'EAN-13', isbn: false },
      colours: ['white'],
      width: 600,
      height: 600,
    });
    expect(result.title).toBeUndefined();
    expect(result.category).toBeUndefined();
    expect(result.description).toBe('EAN-13 barcode 5012345678900. Mostly white; square photo.');
  });
});
