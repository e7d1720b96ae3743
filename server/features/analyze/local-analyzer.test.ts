import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeImageDataUrl } from '../../photos/photo-input';
import { toDataUrl } from '../../test/images';
import { closeWorkerPool, poolSize } from '../../workers/pool';
import { parseTradelist, solveTradesOffThread } from '../circles';
import { presentAnalysis } from './analyze-service';
import { decodeRetailBarcode } from './barcode';
import { barcodePool, LocalImageAnalyzer } from './local-analyzer';
import { ENG_LANG_PATH } from './ocr';
import { blankPng, bookCoverPng, ean13CheckDigit, ean13Modules, textLabelPng } from './test-images';

const analyzer = new LocalImageAnalyzer();
afterAll(() => analyzer.close());
afterAll(() => closeWorkerPool());

/** Analyse image bytes the way the route does: checked as an item photo, then presented. */
async function analyze(bytes: Buffer, mime = 'image/png') {
  const photo = await decodeImageDataUrl(toDataUrl(bytes, mime));
  return presentAnalysis(await analyzer.analyze(photo), analyzer.provider);
}

describe('the EAN-13 test helper', () => {
  it('computes check digits and the 95 modules', () => {
    // The Hobbit (HarperCollins, 1991): ISBN 978-0-261-10221-7.
    expect(ean13CheckDigit('978026110221')).toBe(7);
    const modules = ean13Modules('9780261102217');
    expect(modules).toHaveLength(95);
    expect(modules.startsWith('101')).toBe(true);
    expect(modules.slice(45, 50)).toBe('01010');
    expect(() => ean13Modules('9780261102210')).toThrow(/check digit/);
  });
});

describe('local photo analysis', () => {
  it('reads its model from the installed data package, not from the network', () => {
    expect(ENG_LANG_PATH).toMatch(/node_modules[/\\]@tesseract\.js-data[/\\]eng[/\\]4\.0\.0_best_int$/);
    expect(existsSync(`${ENG_LANG_PATH}/eng.traineddata.gz`)).toBe(true);
  });

  it('reads a book cover: the title from the largest text, books from the ISBN barcode', async () => {
    const result = await analyze(await bookCoverPng());
    expect(result.provider).toBe('local');
    expect(result.title).toBe('The Hobbit');
    expect(result.category).toBe('books');
    expect(result.isService).toBe(false);
    // As a neighbor would write it: the book, its author, its ISBN; no colours or orientation.
    expect(result.description).toMatch(/^The Hobbit by .*Tolkien\. ISBN 9780261102217\.$/);
    // Nothing on the cover says what it is worth.
    expect(result.estimatedValue).toBeUndefined();
    expect(result.confidence.title).toBeGreaterThan(0.7);
    expect(result.confidence.category).toBeGreaterThanOrEqual(0.9);
    expect(result.confidence.description).toBeGreaterThan(0.5);
    expect(result.confidence.estimatedValue).toBeUndefined();
  });

  it('reads a cover sent as a JPEG taken sideways (EXIF orientation 6), as a phone sends it', async () => {
    // Stored turned a quarter to the left; orientation 6 tells viewers to turn it back.
    const sideways = await sharp(
      await bookCoverPng({ title: 'Dune', author: 'Frank Herbert', isbn: '978044117271' }),
    )
      .rotate(270)
      .jpeg({ quality: 85 })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const result = await analyze(sideways, 'image/jpeg');
    expect(result.title).toBe('Dune');
    expect(result.category).toBe('books');
    expect(result.description).toMatch(/^Dune by .*Herbert\. ISBN 9780441172719\.$/);
  });

  it('reads a text-only label: brand and product as the title, tools from the brand, a printed price', async () => {
    const result = await analyze(await textLabelPng(['DeWalt', '20V MAX Cordless Drill', 'Now $89.99']));
    expect(result.title).toBe('DeWalt 20V MAX Cordless Drill');
    expect(result.category).toBe('tools');
    expect(result.isService).toBe(false);
    expect(result.estimatedValue).toBe(89.99);
    // A printed price is what it cost new: reported, but with low confidence.
    expect(result.confidence.estimatedValue).toBeLessThanOrEqual(0.5);
    expect(result.description).toBe('DeWalt 20V MAX Cordless Drill.');
  });

  it('suggests a category from a label’s words beyond books and tools: goods and services (issue 28)', async () => {
    const tent = await analyze(await textLabelPng(['Coleman', 'Camping Tent']));
    expect(tent).toMatchObject({ category: 'rvs+camp', isService: false });
    expect(tent.confidence.category).toBeGreaterThan(0.5);
    const mowing = await analyze(await textLabelPng(['Lawn Mowing', 'Every week, any yard']));
    expect(mowing).toMatchObject({ category: 'farm+garden', isService: true });
  });

  it('leaves a category out when the words do not point to one', async () => {
    const result = await analyze(await textLabelPng(['Hello Neighbour']));
    expect(result.title).toBe('Hello Neighbour');
    expect(result.category).toBeUndefined();
    expect(result.isService).toBeUndefined();
    expect(result.confidence.category).toBeUndefined();
  });

  it('says nothing about a photo with nothing on it', async () => {
    const result = await analyze(await blankPng());
    expect(result).toEqual({ provider: 'local', confidence: {} });
  });
});

describe('barcodes read in the worker pool (issue 27, ADR 048)', () => {
  /** Greyscale pixels of an image, as the analyzer hands them to ZXing. */
  async function grey(bytes: Buffer) {
    const { data, info } = await sharp(bytes)
      .greyscale()
      .extractChannel(0)
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { pixels: data, width: info.width, height: info.height };
  }

  it('finds what ZXing finds on this thread, and nothing where it finds nothing', async () => {
    for (const bytes of [
      await bookCoverPng(),
      await bookCoverPng({ title: 'Dune', author: 'Frank Herbert', isbn: '978044117271' }),
      await textLabelPng(['ACME', 'Cordless drill']),
      await blankPng(),
    ]) {
      const image = await grey(bytes);
      expect(await barcodePool().run('readBarcode', image)).toEqual(decodeRetailBarcode(image));
    }
    expect(await barcodePool().run('readBarcode', await grey(await bookCoverPng()))).toMatchObject({
      digits: '9780261102217',
      isbn: true,
    });
  });

  it("reads a cover's barcode at the request's priority while the shared pool is busy solving (ADR 127)", async () => {
    // Not lowered (ADR 098): the text read beside it runs at the process's priority too.
    expect(await barcodePool().run('niceness', {})).toBe(os.getPriority(0));
    const cover = await grey(await bookCoverPng());
    // The barcode's thread started and ZXing warm: what is compared is a read, not a thread's start.
    await barcodePool().run('readBarcode', cover);
    const canada = parseTradelist(
      readFileSync(new URL('../circles/engine/fixtures/olwlg-286870.txt', import.meta.url), 'utf8'),
    ).graph;
    // Twenty solves a thread of the shared pool (each 80-700 ms here): it stays busy with a queue
    // for seconds. A read queued there would come after every one of them.
    let solved = 0;
    const solves = Array.from({ length: 20 * poolSize() }, () =>
      solveTradesOffThread(canada).then(() => {
        solved++;
      }),
    );
    try {
      expect(await barcodePool().run('readBarcode', cover)).toMatchObject({
        digits: '9780261102217',
        isbn: true,
      });
      expect(solved).toBeLessThan(solves.length);
    } finally {
      await Promise.all(solves);
    }
  }, 120_000);

  it('leaves the event loop free while ZXing searches a large photo', async () => {
    // A noisy 1600 x 1200 photo without a barcode: ZXing searches all of it (hundreds of milliseconds).
    const noise = await sharp({
      create: {
        width: 1600,
        height: 1200,
        channels: 3,
        background: { r: 0, g: 0, b: 0 },
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .png()
      .toBuffer();
    const image = await grey(noise);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    try {
      expect(await barcodePool().run('readBarcode', image)).toBeNull();
      expect(await barcodePool().run('readBarcode', image)).toBeNull();
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(5);
  }, 60_000);
});
