import { z } from 'zod';
import { GOODS_CATEGORIES, SERVICE_CATEGORIES } from '#common/categories.ts';
import {
  LISTING_DESCRIPTION_MAX_LENGTH,
  LISTING_TITLE_MAX_LENGTH,
  LISTING_VALUE_MAX,
} from '#common/schemas/listings.ts';
import { type DecodedPhoto, openPhoto, toPhotoError } from '../../photos/photo-input';
import { type Analysis, aiUnavailable, type ImageAnalyzer } from './image-analyzer';

export interface OpenAiOptions {
  /** OPENAI_BASE_URL, e.g. https://api.openai.com/v1 (the path up to /chat/completions). */
  baseUrl: string;
  /** OPENAI_API_KEY; sent as a bearer token when set (local servers often need none). */
  apiKey?: string;
  /** OPENAI_MODEL: a model that accepts images. */
  model: string;
  /** OPENAI_TIMEOUT_MS: the whole request, answer included. */
  timeoutMs: number;
  /** For logging what went wrong upstream (the client only hears "unavailable"). */
  onError?: (error: unknown, what: string) => void;
}

/** The photo is sent at most this large: plenty to recognise an item, and cheap in tokens. */
const SENT_MAX_SIDE = 1024;
const SENT_JPEG_QUALITY = 80;

export const SYSTEM_PROMPT = `You look at one photo of something a neighbor wants to offer on a barter site, and suggest the details of its listing.
Answer with a single JSON object and nothing else, with these keys:
- "title": a short listing title (at most 80 characters), or null.
- "description": one to three plain sentences as a neighbor would write them in a listing (what it is, brand and model, condition, size), never the photo's colors, background or orientation; or null.
- "isService": true only when the photo advertises a service (lessons, repairs, help) rather than a thing; otherwise false.
- "category": when isService is false, exactly one of ${JSON.stringify(GOODS_CATEGORIES)}; when isService is true, exactly one of ${JSON.stringify(SERVICE_CATEGORIES)}; or null.
- "estimatedValue": a typical second-hand value in US dollars as a number, or null when you cannot judge it.
- "confidence": an object with a number from 0 to 1 for each of "title", "description", "category" and "estimatedValue".
Use null for anything the photo does not show. Never invent brands, text or prices you cannot see or reasonably judge.`;

const USER_PROMPT = 'Suggest the listing details for the item in this photo.';

/** The parts of a chat-completions answer we read. */
const completionSchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
});

const confidenceValue = z.number().nullish();

/** The JSON object the model is asked for; extra keys are ignored, wrong types refuse the answer. */
const answerSchema = z.object({
  title: z.string().nullish(),
  description: z.string().nullish(),
  isService: z.boolean().nullish(),
  category: z.string().nullish(),
  estimatedValue: z.union([z.number(), z.string()]).nullish(),
  confidence: z
    .object({
      title: confidenceValue,
      description: confidenceValue,
      category: confidenceValue,
      estimatedValue: confidenceValue,
    })
    .nullish(),
});

type Answer = z.infer<typeof answerSchema>;

/** Thrown inside the provider for a bad answer; becomes 502 AI_UNAVAILABLE. */
class BadAnswer extends Error {
  override name = 'BadAnswer';
}

const clamp01 = (value: number | null | undefined) =>
  typeof value === 'number' && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : undefined;

/**
 * The category as one of our lists spells it. A category in neither list is dropped (the member
 * picks one) rather than failing the whole answer: the title and description are still useful.
 */
export function matchCategory(
  category: string | null | undefined,
  isService: boolean | null | undefined,
): { category: string; isService: boolean } | null {
  const wanted = category?.trim().toLowerCase();
  if (!wanted) return null;
  const inGoods = (GOODS_CATEGORIES as readonly string[]).includes(wanted);
  const inServices = (SERVICE_CATEGORIES as readonly string[]).includes(wanted);
  if (isService === true) return inServices ? { category: wanted, isService: true } : null;
  if (inGoods) return { category: wanted, isService: false };
  // The model forgot isService but named a service-only category.
  if (isService == null && inServices) return { category: wanted, isService: true };
  return null;
}

/** Turn the model's answer into our shape: trimmed, bounded, categories from the lists. */
export function analysisFromAnswer(answer: Answer, onDropped?: (what: string) => void): Analysis {
  const confidence = answer.confidence ?? {};
  const analysis: Analysis = { confidence: {} };

  const title = answer.title?.replace(/\s+/g, ' ').trim().slice(0, LISTING_TITLE_MAX_LENGTH).trim();
  if (title) {
    analysis.title = title;
    analysis.confidence.title = clamp01(confidence.title);
  }
  const description = answer.description?.trim().slice(0, LISTING_DESCRIPTION_MAX_LENGTH).trim();
  if (description) {
    analysis.description = description;
    analysis.confidence.description = clamp01(confidence.description);
  }
  const category = matchCategory(answer.category, answer.isService);
  if (category) {
    analysis.category = category.category;
    analysis.isService = category.isService;
    analysis.confidence.category = clamp01(confidence.category);
  } else if (answer.category) {
    onDropped?.(`category "${answer.category.slice(0, 60)}" is not in the list`);
  }
  const value =
    typeof answer.estimatedValue === 'string'
      ? Number(answer.estimatedValue.replace(/[$,\s]/g, ''))
      : answer.estimatedValue;
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= LISTING_VALUE_MAX) {
    analysis.estimatedValue = Math.round(value * 100) / 100;
    analysis.confidence.estimatedValue = clamp01(confidence.estimatedValue);
  }
  return analysis;
}

/** The JSON object in the message, also when a model wraps it in a ``` fence despite the format. */
function parseAnswer(content: string | null): Answer {
  if (!content) throw new BadAnswer('empty answer');
  const unfenced = content
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/```$/, '')
    .trim();
  let json: unknown;
  try {
    json = JSON.parse(unfenced);
  } catch {
    throw new BadAnswer('answer is not JSON');
  }
  const parsed = answerSchema.safeParse(json);
  if (!parsed.success) throw new BadAnswer(`answer has the wrong shape: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

/**
 * AI_PROVIDER=openai: any OpenAI-compatible chat-completions endpoint that takes images (OpenAI,
 * or a local server such as Ollama or vLLM). The photo is re-encoded to a modest JPEG (upright, no
 * metadata) and sent as an image_url part; the answer must be the JSON object SYSTEM_PROMPT asks
 * for. HTTP errors, timeouts and malformed answers become 502 AI_UNAVAILABLE.
 */
export class OpenAiImageAnalyzer implements ImageAnalyzer {
  readonly provider = 'openai' as const;
  private readonly endpoint: string;

  constructor(private readonly options: OpenAiOptions) {
    this.endpoint = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  }

  async analyze(photo: DecodedPhoto): Promise<Analysis> {
    const image = await this.encode(photo);
    const content = await this.complete(image);
    try {
      return analysisFromAnswer(parseAnswer(content), (what) =>
        this.options.onError?.(new Error(what), 'dropped'),
      );
    } catch (error) {
      this.options.onError?.(error, 'answer');
      throw aiUnavailable(
        502,
        'The photo analysis service gave an answer we could not use. Please fill in the details yourself.',
        error,
      );
    }
  }

  async close(): Promise<void> {}

  /** The photo as a JPEG data URL, upright, at most SENT_MAX_SIDE, without EXIF (so no GPS). */
  private async encode(photo: DecodedPhoto): Promise<string> {
    try {
      const jpeg = await openPhoto(photo.bytes)
        .rotate()
        .resize({ width: SENT_MAX_SIDE, height: SENT_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: SENT_JPEG_QUALITY })
        .toBuffer();
      return `data:image/jpeg;base64,${jpeg.toString('base64')}`;
    } catch (error) {
      throw toPhotoError(error);
    }
  }

  /** POST /chat/completions and return the message text. */
  private async complete(imageDataUrl: string): Promise<string | null> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
    };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    const body = {
      model: this.options.model,
      response_format: { type: 'json_object' },
      temperature: 0.2,
      max_tokens: 600,
      messages: [
        { role: 'system', content: SYSTEM_PROMPT },
        {
          role: 'user',
          content: [
            { type: 'text', text: USER_PROMPT },
            { type: 'image_url', image_url: { url: imageDataUrl, detail: 'low' } },
          ],
        },
      ],
    };
    try {
      const response = await fetch(this.endpoint, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs),
        redirect: 'error',
      });
      if (!response.ok) {
        const text = await response.text().catch(() => '');
        throw new Error(`HTTP ${response.status}: ${text.slice(0, 300)}`);
      }
      const parsed = completionSchema.safeParse(await response.json());
      if (!parsed.success) throw new BadAnswer('not a chat-completions answer');
      return parsed.data.choices[0]?.message.content ?? null;
    } catch (error) {
      this.options.onError?.(error, 'request');
      const timedOut =
        error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw aiUnavailable(
        502,
        timedOut
          ? 'The photo analysis service did not answer in time. Please fill in the details yourself.'
          : 'The photo analysis service is unavailable right now. Please fill in the details yourself.',
        error,
      );
    }
  }
}
