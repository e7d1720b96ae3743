/**
 * The served page of an item (`/items/:id`, issue 31, ADR 083): its answer's status and the link
 * preview's tags. A chat app that is handed the link reads the page's head, not its script, so the
 * Open Graph and Twitter tags (title, description, the cover photo's absolute address, the page's
 * own address) are written into the HTML here, whether or not the server also draws the page.
 *
 * The item is read through `app.inject` of `GET /api/public/items/:id` with the visitor's cookies:
 * the same route, gate and checks as the page's own read. So a visitor who has not passed the site
 * gate gets the plain page (the gate), never the item's words; an id that is not an item's, or an
 * item no longer shown (hidden, removed, traded), is a 404 page.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ItemDetail } from '#common/schemas/feed.ts';

/** An item page's path; what follows `/items/` is checked on its own (any text may be sent). */
const ITEM_PAGE = /^\/items\/([^/]*)$/;

/** An item id as the API takes it (common/schemas/listings.ts: listingIdParamsSchema). */
const ITEM_ID = /^[1-9]\d{0,9}$/;

/** The preview's description: the item's words cut to this many characters. */
const PREVIEW_DESCRIPTION_MAX = 200;

export interface ItemPageHead {
  /** 404 for an unknown or no longer shown item (the page then shows so); 200 otherwise. */
  status: 200 | 404;
  /** Tags for the head (empty when there is nothing to preview). */
  tags: string;
  /** The document title, or null to keep the page's own. */
  title: string | null;
}

/** Text for an attribute or element: the five characters HTML gives meaning to, written as entities. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** One line of the description, cut at a word near PREVIEW_DESCRIPTION_MAX with "…". */
export function previewDescription(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= PREVIEW_DESCRIPTION_MAX) return line;
  const cut = line.slice(0, PREVIEW_DESCRIPTION_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > PREVIEW_DESCRIPTION_MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The Open Graph and Twitter tags for an item at `pageUrl` (absolute), photos made absolute on `publicUrl`. */
export function itemPreviewTags(item: ItemDetail, publicUrl: string, pageUrl: string): string {
  const description = previewDescription(item.description);
  const image = item.imageUrl ? new URL(item.imageUrl, `${publicUrl}/`).href : null;
  const tags: [string, string, string][] = [
    ['property', 'og:type', 'website'],
    ['property', 'og:site_name', 'Barterhood'],
    ['property', 'og:title', item.title],
    ['property', 'og:description', description],
    ['property', 'og:url', pageUrl],
    ['name', 'twitter:card', image ? 'summary_large_image' : 'summary'],
    ['name', 'twitter:title', item.title],
    ['name', 'twitter:description', description],
  ];
  if (image) {
    tags.push(['property', 'og:image', image], ['property', 'og:image:alt', item.title]);
    tags.push(['name', 'twitter:image', image]);
  }
  return tags
    .map(([attribute, key, value]) => `<meta ${attribute}="${key}" content="${escapeHtml(value)}" />`)
    .join('');
}

/**
 * The head of the item page at `request.url`, or null when the path is not an item page. Never
 * throws: a read that fails leaves the plain page (the browser then asks and shows what it gets).
 */
export async function itemPageHead(
  app: FastifyInstance,
  request: FastifyRequest,
): Promise<ItemPageHead | null> {
  const pathname = request.url.split('?', 1)[0] ?? '';
  const match = ITEM_PAGE.exec(pathname);
  if (!match) return null;
  const id = match[1] ?? '';
  if (!ITEM_ID.test(id)) return { status: 404, tags: '', title: null };
  const headers: Record<string, string> = { accept: 'application/json' };
  if (request.headers.cookie) headers.cookie = request.headers.cookie;
  try {
    const response = await app.inject({
      method: 'GET',
      url: `/api/public/items/${id}`,
      headers,
      remoteAddress: request.ip,
    });
    if (response.statusCode === 404 || response.statusCode === 400)
      return { status: 404, tags: '', title: null };
    if (response.statusCode !== 200) return { status: 200, tags: '', title: null };
    const item = response.json() as ItemDetail;
    const publicUrl = app.config.publicUrl;
    return {
      status: 200,
      tags: itemPreviewTags(item, publicUrl, `${publicUrl}/items/${id}`),
      title: `${item.title} · Barterhood`,
    };
  } catch (error) {
    request.log.warn({ err: error }, "the item page's preview could not be read");
    return { status: 200, tags: '', title: null };
  }
}

/** The page with the head's tags and title in place (replaced through functions: "$'" stays text). */
export function withItemHead(page: string, head: ItemPageHead): string {
  let html = page;
  if (head.title !== null) {
    const title = head.title;
    html = html.replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)}</title>`);
  }
  if (head.tags) html = html.replace('</head>', () => `${head.tags}</head>`);
  return html;
}
