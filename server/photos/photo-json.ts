import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * A body larger than this is taken to carry a photo: the photo queue gives it a place before it is
 * read (photoUploadHooks), and a JSON one is looked at for a data URL. Item forms without a photo
 * are a few KB.
 */
export const PHOTO_LIKELY_BYTES = 64 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

function skipWhitespace(body: Buffer, index: number): number {
  let i = index;
  while (body[i] === 0x20 || body[i] === 0x09 || body[i] === 0x0a || body[i] === 0x0d) i++;
  return i;
}

/** Just past the closing quote of the JSON string opening at `index`, or -1. */
function skipString(body: Buffer, index: number): number {
  let from = index + 1;
  for (;;) {
    const quote = body.indexOf(QUOTE, from);
    if (quote === -1) return -1;
    let backslashes = 0;
    while (body[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** Just past the JSON value starting at `index` (strings and nesting followed, scalars to their end), or -1. */
function skipValue(body: Buffer, index: number): number {
  const first = body[index];
  if (first === QUOTE) return skipString(body, index);
  if (first === OPEN_OBJECT || first === OPEN_ARRAY) {
    let depth = 0;
    for (let i = index; i < body.length; i++) {
      const byte = body[i];
      if (byte === QUOTE) {
        i = skipString(body, i) - 1;
        if (i < 0) return -1;
      } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
        depth++;
      } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    return -1;
  }
  let i = index;
  while (
    i < body.length &&
    ![COMMA, CLOSE_OBJECT, CLOSE_ARRAY, 0x20, 0x09, 0x0a, 0x0d].includes(body[i] as number)
  )
    i++;
  return i > index ? i : -1;
}

/** A JSON object key as JSON.parse reads it (escapes included); null when it is not valid JSON. */
function keyOf(body: Buffer, start: number, end: number): string | null {
  const raw = body.toString('utf8', start, end);
  if (!raw.includes('\\')) return raw.slice(1, -1);
  try {
    return JSON.parse(raw) as string;
  } catch {
    return null;
  }
}

/**
 * Where the value of the top-level key "imageUrl" is, when it is a data URL written without escapes
 * and the key appears once: its characters run from `start` to `end` (the quotes excluded). Null
 * for anything else, including JSON this scan cannot vouch for: JSON.parse then reads the body.
 */
export function findDataUrl(body: Buffer): { start: number; end: number } | null {
  let i = skipWhitespace(body, 0);
  if (body[i] !== OPEN_OBJECT) return null;
  i++;
  let found: { start: number; end: number } | null = null;
  let seen = false;
  for (;;) {
    i = skipWhitespace(body, i);
    if (body[i] === CLOSE_OBJECT) return found;
    if (body[i] !== QUOTE) return null;
    const keyEnd = skipString(body, i);
    if (keyEnd < 0) return null;
    const key = keyOf(body, i, keyEnd);
    if (key === null) return null;
    i = skipWhitespace(body, keyEnd);
    if (body[i] !== COLON) return null;
    i = skipWhitespace(body, i + 1);
    const valueEnd = skipValue(body, i);
    if (valueEnd < 0) return null;
    if (key === 'imageUrl') {
      if (seen) return null;
      seen = true;
      const start = i + 1;
      const end = valueEnd - 1;
      const escaped = body.indexOf(BACKSLASH, start);
      if (
        body[i] === QUOTE &&
        body.toString('latin1', start, start + 5) === 'data:' &&
        (escaped === -1 || escaped >= end)
      ) {
        found = { start, end };
      }
    }
    i = skipWhitespace(body, valueEnd);
    if (body[i] === COMMA) {
      i++;
    } else if (body[i] === CLOSE_OBJECT) {
      return found;
    } else {
      return null;
    }
  }
}

/**
 * What the JSON parser took out of a body: the data URL's bytes. The parsed body's `imageUrl` holds
 * only the data URL's header in their place.
 */
const dataUrls = new WeakMap<FastifyRequest, Buffer>();

/**
 * The data URL photoJsonParser took out of this request's JSON body, as its ASCII bytes; handed out
 * once, so the body's memory goes as soon as the photo is decoded.
 */
export function takeDataUrlBytes(request: FastifyRequest): Buffer | undefined {
  const bytes = dataUrls.get(request);
  dataUrls.delete(request);
  return bytes;
}

/**
 * The JSON parser for routes that take a photo as a data URL (the spec's form, ADR 013): a large
 * body is read as bytes, and a top-level `imageUrl` data URL stays bytes (dataUrlBytesOf), never a
 * JS string. The rest of the body (a few hundred bytes) is parsed by Fastify's own JSON parser, so
 * errors and prototype-poisoning checks are the usual ones. Reading the photo as a string cost the
 * event loop a 13 MB JSON.parse and kept two 13 MB strings per upload on the heap.
 * Registered in an encapsulated scope: it replaces the JSON parser of that scope only.
 */
export function photoJsonParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    const dataUrl = body.length > PHOTO_LIKELY_BYTES ? findDataUrl(body) : null;
    if (!dataUrl) {
      parseJson(request, body.toString('utf8'), done);
      return;
    }
    const bytes = body.subarray(dataUrl.start, dataUrl.end);
    // In the body's place: the header (`data:image/jpeg;base64,`), or `data:` when there is none to
    // speak of (decoding the bytes then says INVALID_PHOTO, as for any such data URL). The bytes
    // are checked as strictly as a string would be: anything JSON would not allow in a string is
    // not base64 either.
    const comma = bytes.indexOf(COMMA);
    const header = bytes.toString('latin1', 0, comma === -1 || comma > 256 ? 5 : comma + 1);
    dataUrls.set(request, bytes);
    parseJson(
      request,
      `${body.toString('utf8', 0, dataUrl.start)}${header}${body.toString('utf8', dataUrl.end)}`,
      done,
    );
  });
}
