import { createRequire } from 'node:module';
import path from 'node:path';
import type { Worker } from 'tesseract.js';

const require = createRequire(import.meta.url);

/**
 * The English model from the installed `@tesseract.js-data/eng` package: the LSTM-only "best_int"
 * data (2.9 MB, gzipped), read from disk. A local path (not a URL) makes tesseract.js read the file
 * instead of fetching it; the core (WebAssembly) and worker script come from the installed
 * `tesseract.js-core` and `tesseract.js` packages too, so OCR never touches the network.
 */
export const ENG_LANG_PATH = path.join(
  path.dirname(require.resolve('@tesseract.js-data/eng/package.json')),
  '4.0.0_best_int',
);

/** One line of text as OCR read it. */
export interface OcrLine {
  text: string;
  /** 0 to 100, as tesseract reports it. */
  confidence: number;
  /** Height of the line's box in pixels: bigger text is more prominent. */
  height: number;
  top: number;
  left: number;
  width: number;
}

export interface OcrResult {
  lines: OcrLine[];
}

/** Thrown when more photos wait for OCR than OcrEngine allows. */
export class OcrBusyError extends Error {
  override name = 'OcrBusyError';
}

/**
 * One reusable tesseract.js worker (a worker thread), created on first use and kept warm: loading
 * the model takes about a second, a recognition then a few hundred milliseconds. Recognitions run
 * one at a time; at most `maxWaiting` more may queue, beyond that OcrBusyError.
 */
export class OcrEngine {
  private worker: Promise<Worker> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private waiting = 0;
  private closed = false;

  constructor(private readonly maxWaiting = 8) {}

  /** Read the text lines of an image (PNG, JPEG... bytes), best prepared as large greyscale. */
  async recognize(image: Buffer): Promise<OcrResult> {
    if (this.closed) throw new Error('OCR engine is closed');
    if (this.waiting >= this.maxWaiting) throw new OcrBusyError('Too many photos are waiting for OCR');
    this.waiting++;
    const run = this.queue.then(async () => {
      this.waiting--;
      const worker = await this.getWorker();
      try {
        const { data } = await worker.recognize(image, {}, { blocks: true, text: false });
        return { lines: linesOf(data.blocks) };
      } catch (error) {
        // A worker that failed once may be in any state: start a fresh one next time.
        this.reset(worker);
        throw error;
      }
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Terminate the worker (app close). */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    if (worker) await (await worker.catch(() => null))?.terminate();
  }

  private getWorker(): Promise<Worker> {
    if (!this.worker) {
      // tesseract.js loads with the first photo read, not with the server (ADR 122).
      const starting = import('tesseract.js')
        .then(({ createWorker, OEM }) =>
          createWorker('eng', OEM.LSTM_ONLY, {
            langPath: ENG_LANG_PATH,
            // The data files are .traineddata.gz; never read or write a cache in the working directory.
            gzip: true,
            cacheMethod: 'none',
            errorHandler: () => undefined,
          }),
        )
        .then(async (worker) => {
          // Images carry no useful resolution; without this tesseract warns and guesses 70 dpi.
          await worker.setParameters({ user_defined_dpi: '300' });
          return worker;
        });
      this.worker = starting;
      starting.catch(() => {
        if (this.worker === starting) this.worker = null;
      });
    }
    return this.worker;
  }

  private reset(worker: Worker) {
    this.worker = null;
    void worker.terminate().catch(() => undefined);
  }
}

interface TesseractLine {
  text: string;
  confidence: number;
  bbox: { x0: number; y0: number; x1: number; y1: number };
}

/** Flatten tesseract's blocks > paragraphs > lines into lines, top to bottom. */
function linesOf(blocks: Array<{ paragraphs: Array<{ lines: TesseractLine[] }> }> | null): OcrLine[] {
  const lines: OcrLine[] = [];
  for (const block of blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const text = line.text.replace(/\s+/g, ' ').trim();
        if (!text) continue;
        lines.push({
          text,
          confidence: line.confidence,
          height: line.bbox.y1 - line.bbox.y0,
          top: line.bbox.y0,
          left: line.bbox.x0,
          width: line.bbox.x1 - line.bbox.x0,
        });
      }
    }
  }
  return lines.sort((a, b) => a.top - b.top);
}
