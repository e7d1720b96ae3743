import { ANALYZE_ERROR_CODES } from '#common/schemas/analyze.ts';
import {
  LISTING_DESCRIPTION_MAX_LENGTH,
  LISTING_TITLE_MAX_LENGTH,
  LISTING_VALUE_MAX,
} from '#common/schemas/listings.ts';
import { HttpError } from '../../errors';
import { type DecodedPhoto, openPhoto, toPhotoError } from '../../photos/photo-input';
import { loadSharp } from '../../photos/sharp';
import { dedicatedPool, type WorkerPool, WorkerPoolError } from '../../workers/pool';
import { categorize } from './categorize';
import { type Analysis, aiUnavailable, type ImageAnalyzer } from './image-analyzer';
import { OcrBusyError, OcrEngine, type OcrLine } from './ocr';
import { describeBarcode, type GreyImage, type RetailBarcode } from './retail-barcode';

/** Photos are read at most this large: enough for text and barcodes, and OCR stays well under a second. */
const ANALYSIS_MAX_SIDE = 1600;
/** Lines tesseract is less sure of than this (0 to 100) are treated as noise. */
const MIN_LINE_CONFIDENCE = 60;
/** Lines at least this share of the tallest line's height count as the most prominent text. */
const PROMINENT_SHARE = 0.75;

const round2 = (value: number) => Math.round(value * 100) / 100;

/** Keep letters, digits and everyday punctuation; single spaces. */
function cleanText(text: string): string {
  return text
    .replace(/[^\p{L}\p{N}\s'&.,:;!?+\-/()$%#]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A line worth reporting: confident, and mostly letters or digits (not a rule drawn as "____"). */
function isReadable(line: OcrLine): boolean {
  if (line.confidence < MIN_LINE_CONFIDENCE) return false;
  const alphanumeric = line.text.match(/[\p{L}\p{N}]/gu)?.length ?? 0;
  return alphanumeric >= 2 && alphanumeric / line.text.replace(/\s/g, '').length >= 0.6;
}

const PRICE = /(?:^|[^\w])\$\s?(\d{1,8}(?:\.\d{2})?)(?![\d.,])/;

/** Prices, barcode digits and ISBN lines describe the item but do not name it. */
function canBeTitle(line: OcrLine): boolean {
  const text = line.text.trim();
  if (/^\$?\s?\d+([.,]\d{2})?$/.test(text) || PRICE.test(` ${text}`)) return false;
  if (/\bisbn\b/i.test(text) || /^[\d\s-]{8,}$/.test(text)) return false;
  return /\p{L}{2}/u.test(text);
}

/** Title Case for text printed in capitals ("THE HOBBIT" -> "The Hobbit"); words with digits stay. */
function unshout(text: string): string {
  if (/\p{Ll}/u.test(text) || !/\p{Lu}{2}/u.test(text)) return text;
  return text.replace(/\p{L}+/gu, (word) =>
    word.length <= 2 && word !== 'A' ? word : `${word[0]}${word.slice(1).toLowerCase()}`,
  );
}

/**
 * The title from the most prominent text: the topmost run of the tallest lines (at most two). A
 * single word on its own is usually a brand or logo, so the confident line right under it is added,
 * except on a book (an ISBN was read), where one word is the title and the line under it the author.
 */
export function titleFrom(
  lines: OcrLine[],
  options: { book?: boolean } = {},
): { title: string; confidence: number } | null {
  const candidates = lines.filter(canBeTitle);
  const tallest = Math.max(0, ...candidates.map((line) => line.height));
  if (tallest === 0) return null;
  const start = candidates.findIndex((line) => line.height >= PROMINENT_SHARE * tallest);
  const chosen = [candidates[start] as OcrLine];
  const next = candidates[start + 1];
  if (next && next.height >= PROMINENT_SHARE * tallest) chosen.push(next);
  else if (next && !options.book && next.height >= 0.5 * tallest && !/\s/.test(chosen[0]?.text.trim() ?? ''))
    chosen.push(next);

  const title = unshout(cleanText(chosen.map((line) => line.text).join(' ')))
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N})!?]+$/gu, '')
    .slice(0, LISTING_TITLE_MAX_LENGTH)
    .trim();
  if (title.length < 2) return null;
  const mean = chosen.reduce((sum, line) => sum + line.confidence, 0) / chosen.length;
  // Even perfectly read text may be a brand or slogan rather than the item's name.
  return { title, confidence: round2((mean / 100) * 0.9) };
}

/** A printed dollar price, from the most prominent line that has one. */
export function priceFrom(lines: OcrLine[]): { value: number; confidence: number } | null {
  const priced = lines
    .map((line) => ({ line, match: PRICE.exec(` ${line.text}`) }))
    .filter((entry) => entry.match)
    .sort((a, b) => b.line.height - a.line.height);
  const best = priced[0];
  const value = Number(best?.match?.[1]);
  if (!best || !Number.isFinite(value) || value <= 0 || value > LISTING_VALUE_MAX) return null;
  // A printed price is what it cost new, not what it is worth in a trade: a hint, not an estimate.
  return { value, confidence: round2((best.line.confidence / 100) * 0.5) };
}

interface Findings {
  lines: OcrLine[];
  barcode: RetailBarcode | null;
}

/** A brand or model as printed: a short line with a word mixing letters and digits ("Yamaha FG800"). */
const MODEL_WORD = /\b(?=[\p{L}-]*\p{N})(?=[\p{N}-]*\p{L})[\p{L}\p{N}-]{2,}\b/u;

/** A line that is neither the title, a price nor a code: a name under a title, a brand, a model. */
function otherLine(line: OcrLine, title: string): string | null {
  if (!canBeTitle(line)) return null;
  const text = unshout(cleanText(line.text)).replace(/[^\p{L}\p{N})!?.]+$/gu, '');
  if (text.length < 2 || text.split(/\s+/).length > 5) return null;
  if (title.toLowerCase().includes(text.toLowerCase())) return null;
  return text;
}

/**
 * What a neighbor would write about the item, from what is printed on it (issue 17): a book as
 * "The Hobbit by J.R.R. Tolkien.", a product as "Yamaha FG800 acoustic guitar.", then its ISBN.
 * Never the photo's colours or orientation, never a list of everything read.
 */
export function describeItem(findings: Findings, title: string | null): string | null {
  const { lines, barcode } = findings;
  const sentences: string[] = [];
  const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);
  if (title) {
    const others = lines
      .map((line) => otherLine(line, title))
      .filter((text): text is string => text !== null);
    if (barcode?.isbn) {
      // On a cover, the line under the title is usually the author.
      const author = others.find((text) => !MODEL_WORD.test(text) && !/\d/.test(text));
      sentences.push(sentence(author ? `${title} by ${author}` : title));
    } else {
      const model = others.find((text) => MODEL_WORD.test(text));
      // A title printed in capitals is a plain description ("ACOUSTIC GUITAR"): lower case after a model.
      const shouted = lines.some(
        (line) => !/\p{Ll}/u.test(line.text) && unshout(cleanText(line.text)) === title,
      );
      sentences.push(sentence(model ? `${model} ${shouted ? title.toLowerCase() : title}` : title));
    }
  }
  if (barcode?.isbn) sentences.push(`${describeBarcode(barcode)}.`);
  return sentences.length > 0 ? sentences.join(' ').slice(0, LISTING_DESCRIPTION_MAX_LENGTH) : null;
}

/** Put what was found into the answer; anything unsupported stays absent. */
export function analysisFrom(findings: Findings): Analysis {
  const { lines, barcode } = findings;
  const analysis: Analysis = { confidence: {} };

  const title = titleFrom(lines, { book: barcode?.isbn ?? false });
  if (title) {
    analysis.title = title.title;
    analysis.confidence.title = title.confidence;
  }

  const description = describeItem(findings, title?.title ?? null);
  if (description) {
    analysis.description = description;
    const lineConfidence =
      lines.length > 0 ? lines.reduce((sum, line) => sum + line.confidence, 0) / lines.length / 100 : 0;
    analysis.confidence.description = round2(Math.max(lineConfidence * 0.9, barcode?.isbn ? 0.9 : 0));
  }

  const category = categorize(lines.map((line) => line.text).join('\n'), { isbn: barcode?.isbn ?? false });
  if (category) {
    analysis.category = category.category;
    analysis.isService = category.isService;
    analysis.confidence.category = category.confidence;
  }

  const price = priceFrom(lines);
  if (price) {
    analysis.estimatedValue = price.value;
    analysis.confidence.estimatedValue = price.confidence;
  }
  return analysis;
}

/** Upright greyscale pixels no larger than ANALYSIS_MAX_SIDE. */
async function preparePhoto(photo: DecodedPhoto) {
  try {
    const grey = await openPhoto(photo.bytes)
      .rotate()
      .resize({
        width: ANALYSIS_MAX_SIDE,
        height: ANALYSIS_MAX_SIDE,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return {
      grey: {
        pixels: grey.data,
        width: grey.info.width,
        height: grey.info.height,
        channels: grey.info.channels,
      },
    };
  } catch (error) {
    throw toPhotoError(error);
  }
}

/** Keep one channel of interleaved pixels (sharp keeps e.g. an alpha channel with greyscale()). */
function firstChannel(pixels: Buffer, channels: number): Buffer {
  if (channels === 1) return pixels;
  const out = Buffer.alloc(pixels.length / channels);
  for (let i = 0; i < out.length; i++) out[i] = pixels[i * channels] ?? 0;
  return out;
}

/** ZXing's search of a whole photo can take a few hundred milliseconds: never longer than this. */
export const BARCODE_TIMEOUT_MS = 10_000;

/**
 * The thread photos' barcodes are read in (ADR 127): one of its own, so a read never waits behind a
 * swap day's solve or the town index in the shared pool, and at the priority the text read runs at
 * (tesseract's thread), not lowered: the member waits for both. Analyses are few (ANALYZE_RATE_LIMIT
 * a member, OCR's queue bounded), and one thread reads one photo at a time.
 */
export function barcodePool(): WorkerPool {
  return dedicatedPool('photo-barcodes', 1, { lowered: false });
}

/**
 * A retail barcode in the image, read off the main thread (ZXing is pure JavaScript: on the event
 * loop it would hold every other request). A pool failure (time limit, thread died) reads as no
 * barcode: the text OCR found still describes the item.
 */
async function readBarcode(image: GreyImage): Promise<RetailBarcode | null> {
  try {
    return await barcodePool().run('readBarcode', image, { timeoutMs: BARCODE_TIMEOUT_MS });
  } catch (error) {
    if (error instanceof WorkerPoolError) return null;
    throw error;
  }
}

/** The same image turned a quarter, for barcodes printed vertically. */
async function rotateQuarter(image: GreyImage): Promise<GreyImage> {
  const { data, info } = await loadSharp()(image.pixels, {
    raw: { width: image.width, height: image.height, channels: 1 },
  })
    .rotate(90)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { pixels: data, width: info.width, height: info.height };
}

/**
 * AI_PROVIDER=local: everything on this machine, nothing over the network. Text is read with
 * tesseract.js (one warm worker), retail barcodes with ZXing;
 * the title, description, category and a printed price are derived from those by plain rules.
 */
export class LocalImageAnalyzer implements ImageAnalyzer {
  readonly provider = 'local' as const;
  private readonly ocr: OcrEngine;

  constructor(options: { maxWaiting?: number } = {}) {
    this.ocr = new OcrEngine(options.maxWaiting);
  }

  async analyze(photo: DecodedPhoto): Promise<Analysis> {
    const { grey: raw } = await preparePhoto(photo);
    const grey: GreyImage = {
      pixels: firstChannel(raw.pixels, raw.channels),
      width: raw.width,
      height: raw.height,
    };
    const png = await loadSharp()(grey.pixels, {
      raw: { width: grey.width, height: grey.height, channels: 1 },
    })
      .png({ compressionLevel: 1 })
      .toBuffer();

    // OCR runs in its worker thread while the barcode is looked for in the worker pool (ADR 048).
    const reading = this.ocr.recognize(png);
    reading.catch(() => undefined);
    const barcode = (await readBarcode(grey)) ?? (await readBarcode(await rotateQuarter(grey)));
    let lines: OcrLine[];
    try {
      lines = (await reading).lines.filter(isReadable);
    } catch (error) {
      if (error instanceof OcrBusyError) {
        throw new HttpError(
          503,
          ANALYZE_ERROR_CODES.aiBusy,
          'Photo analysis is busy. Please try again in a moment.',
        );
      }
      throw aiUnavailable(
        503,
        'Photo analysis failed on this photo. Please fill in the details yourself.',
        error,
      );
    }

    return analysisFrom({
      lines,
      barcode,
    });
  }

  close(): Promise<void> {
    return this.ocr.close();
  }
}
