import type { MultipartFile, MultipartValue } from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PHOTO_MAX_BYTES } from '#common/constants.ts';
import { ERROR_CODES } from '#common/error-codes.ts';
import { badRequest, HttpError } from '../errors';
import type { PhotoStore } from '../storage/photo-store';
import { checkPhotoBytes, type DataUrlText, decodeImageDataUrl, photoTooLarge } from './photo-input';
import { PHOTO_LIKELY_BYTES, takeDataUrlBytes } from './photo-json';
import { processPhoto, type ScreeningStep, type StoredPhoto } from './photo-pipeline';
import { type PhotoQueue, type PhotoTicket, photoQueue } from './photo-queue';

/** The file part of a multipart item form. */
export const PHOTO_FILE_FIELD = 'photo';

/** Form fields that are booleans in the JSON body; multipart sends them as "true" or "false". */
const BOOLEAN_FIELDS = new Set(['isService', 'isActive']);

/**
 * Multipart limits: one file of at most PHOTO_MAX_BYTES, a few short text fields (a description of
 * 2,000 characters is at most 8 KB of UTF-8).
 */
const FORM_LIMITS = { fileSize: PHOTO_MAX_BYTES, files: 1, fields: 20, parts: 21, fieldSize: 16 * 1024 };

/**
 * What a request brings for its photo: its place in the queue, and the file of a multipart form or
 * the data URL of a large JSON body (kept as bytes by photoJsonParser).
 */
export interface PhotoUpload {
  /** Taken when the request arrived (multipart, or a JSON body large enough to hold a photo). */
  ticket?: PhotoTicket;
  /** The `photo` part of a multipart form, size-checked but not yet looked at. */
  file?: Buffer;
  /** The JSON body's `imageUrl` data URL, as bytes; the parsed `imageUrl` holds only its header. */
  dataUrl?: Buffer;
}

/** A photo to check and store: the bytes of a file, or a data URL (a string, or its bytes). */
export type PhotoSource = { file: Buffer } | { dataUrl: DataUrlText };

const uploads = new WeakMap<FastifyRequest, PhotoUpload>();

/**
 * The photo a request brought (see photoUploadHooks and photoJsonParser); empty when none. Handed
 * out once: the caller holds the only reference, so the bytes go as soon as it is done with them.
 */
export function photoUploadOf(request: FastifyRequest): PhotoUpload {
  const upload = uploads.get(request);
  if (upload?.file) uploads.set(request, { ticket: upload.ticket });
  const dataUrl = takeDataUrlBytes(request);
  return { ...upload, ...(dataUrl ? { dataUrl } : {}) };
}

/** Where an uploaded photo goes, and how. */
export interface PhotoStoring {
  /** The request's place in the photo queue (else one is taken now). */
  ticket?: PhotoTicket;
  queue?: PhotoQueue;
  /** Explicit-content screening (ADR 027); none when the settings turn it off. */
  screening?: ScreeningStep | null;
}

/**
 * Check, re-encode, screen and store a photo in its place in the photo queue: the request's ticket,
 * or one taken now (503 PHOTO_QUEUE_FULL when none is free). The place is given back whatever happens.
 */
export async function storeUploadedPhoto(
  store: PhotoStore,
  source: PhotoSource,
  { ticket, queue = photoQueue, screening = null }: PhotoStoring = {},
): Promise<StoredPhoto> {
  const place = ticket ?? queue.reserve();
  try {
    const photo =
      'file' in source ? await checkPhotoBytes(source.file) : await decodeImageDataUrl(source.dataUrl);
    return await place.run(() => processPhoto(photo.bytes, store, screening));
  } finally {
    place.release();
  }
}

/** Multipart's own errors, as our codes and sentences (all the client's doing). */
function toFormError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return photoTooLarge();
  if (code === 'FST_FILES_LIMIT') return badRequest(`Send one photo, as the "${PHOTO_FILE_FIELD}" file.`);
  if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT')
    return badRequest('The form has too many fields.');
  return badRequest('The form data is incomplete or damaged.');
}

/**
 * Read a file part to its end, refusing it (413 PHOTO_TOO_LARGE) as soon as it passes
 * PHOTO_MAX_BYTES. The chunks are copied into one buffer of the size the request announced (the
 * whole form's Content-Length, at most PHOTO_MAX_BYTES), so an upload is held once, not as a list
 * of chunks plus their concatenation.
 */
async function readPhotoFile(part: MultipartFile, sizeHint: number): Promise<Buffer> {
  let bytes = Buffer.allocUnsafe(Math.min(PHOTO_MAX_BYTES, sizeHint));
  let size = 0;
  for await (const chunk of part.file as AsyncIterable<Buffer>) {
    if (size + chunk.length > PHOTO_MAX_BYTES || part.file.truncated) throw photoTooLarge();
    if (size + chunk.length > bytes.length) {
      const larger = Buffer.allocUnsafe(
        Math.min(PHOTO_MAX_BYTES, Math.max(2 * bytes.length, size + chunk.length)),
      );
      bytes.copy(larger, 0, 0, size);
      bytes = larger;
    }
    chunk.copy(bytes, size);
    size += chunk.length;
  }
  if (part.file.truncated) throw photoTooLarge();
  return bytes.subarray(0, size);
}

/**
 * Read a multipart item form: text fields become the body the route's schema checks (booleans from
 * "true"/"false"), the `photo` file part is read into memory up to PHOTO_MAX_BYTES (streamed, never
 * as base64). An empty file with no name (a form whose file input was left empty) is no photo.
 */
async function readItemForm(
  request: FastifyRequest,
): Promise<{ fields: Record<string, unknown>; file?: Buffer }> {
  const fields: Record<string, unknown> = {};
  let file: Buffer | undefined;
  try {
    for await (const part of request.parts({ limits: FORM_LIMITS })) {
      if (part.type === 'file') {
        if (part.fieldname !== PHOTO_FILE_FIELD) {
          throw badRequest(`Unknown file field: ${part.fieldname}. Send the photo as "${PHOTO_FILE_FIELD}".`);
        }
        const bytes = await readPhotoFile(
          part,
          Number(request.headers['content-length']) || PHOTO_LIKELY_BYTES,
        );
        if (bytes.length > 0 || part.filename) file = bytes;
        continue;
      }
      const field = part as MultipartValue<string>;
      if (field.valueTruncated) throw badRequest(`${field.fieldname}: too long.`, ERROR_CODES.validation);
      if (Object.hasOwn(fields, field.fieldname)) {
        throw badRequest(`${field.fieldname}: sent more than once.`, ERROR_CODES.validation);
      }
      const value = field.value;
      fields[field.fieldname] =
        BOOLEAN_FIELDS.has(field.fieldname) && (value === 'true' || value === 'false')
          ? value === 'true'
          : value;
    }
  } catch (error) {
    throw toFormError(error);
  }
  if (file && 'imageUrl' in fields) {
    throw badRequest(
      `imageUrl: Send either the "${PHOTO_FILE_FIELD}" file or imageUrl, not both.`,
      ERROR_CODES.validation,
    );
  }
  return { fields, file };
}

/** A request that probably carries a photo: a multipart form, or a JSON body too large to be without one. */
function carriesPhoto(request: FastifyRequest): boolean {
  if (request.headers['content-type']?.toLowerCase().startsWith('multipart/form-data')) return true;
  return Number(request.headers['content-length'] ?? 0) > PHOTO_LIKELY_BYTES;
}

/**
 * Close the connection once the answer is sent, as Fastify does when a body is refused by its own
 * limit: the client may still be sending the body we stopped reading, and on a kept-alive
 * connection its next request would wait behind those bytes until the request timeout.
 */
function closeAfterAnswer(reply: FastifyReply): void {
  reply.header('connection', 'close');
}

/**
 * Route hooks for the routes that take an item photo (POST /api/items, PATCH /api/items/:id), in the
 * scope where @fastify/multipart is registered:
 * - preParsing (after the sign-in guard and rate limits, before the body is read): a request that
 *   carries a photo takes its place in the photo queue, so a flood of uploads is answered 503
 *   PHOTO_QUEUE_FULL (with Retry-After) at once, without reading or holding their bodies;
 * - preValidation: a multipart form becomes the body the route's schema checks, and its file is kept
 *   for photoUploadOf;
 * - onResponse, and the connection closing: the place is given back if it was never used.
 * A request refused before its body was read to the end is answered with `Connection: close`.
 */
export function photoUploadHooks(queue: PhotoQueue = photoQueue) {
  const release = (request: FastifyRequest) => uploads.get(request)?.ticket?.release();
  return {
    preParsing: async <Payload>(request: FastifyRequest, reply: FastifyReply, payload: Payload) => {
      if (!carriesPhoto(request)) return payload;
      let ticket: PhotoTicket;
      try {
        ticket = queue.reserve();
      } catch (error) {
        // Refused before its body was read: the rest of it is still on the way.
        closeAfterAnswer(reply);
        throw error;
      }
      uploads.set(request, { ticket });
      // A client that goes away while waiting frees its place (a running photo keeps its slot).
      reply.raw.once('close', () => ticket.release());
      return payload;
    },
    preValidation: async (request: FastifyRequest, reply: FastifyReply) => {
      if (!request.isMultipart()) return;
      let form: Awaited<ReturnType<typeof readItemForm>>;
      try {
        form = await readItemForm(request);
      } catch (error) {
        // Refused part-way through the form (413 PHOTO_TOO_LARGE, a bad part): the rest is unread.
        closeAfterAnswer(reply);
        throw error;
      }
      const { fields, file } = form;
      request.body = fields;
      uploads.set(request, { ...uploads.get(request), file });
    },
    onResponse: async (request: FastifyRequest) => release(request),
  };
}
