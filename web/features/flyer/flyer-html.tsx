import type { MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { Fragment, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { FLYER_TEAR_OFF_TABS, PRODUCT_NAME } from '#common/constants.ts';
import type { FlyerListing, FlyerNeighborhood } from '#common/schemas/flyer.ts';
import { i18n } from '../../i18n/i18n';
import { translateKnown } from '../../i18n/known-messages';

/**
 * The one way to make a flyer (issue 8): pure functions that return complete HTML documents, used
 * for the preview on the page (an iframe's srcdoc), the print window (document.write) and the
 * downloaded file. Everything is inline: styles in one <style>, the QR code as a data URL, no
 * scripts, no fonts or images from anywhere, so a downloaded flyer opens with no network. The
 * documents carry their own CSP that forbids every request but data: images. Their words are in the
 * active language (ADR 036): build them at render time. The documents are React elements rendered
 * with renderToStaticMarkup, so every text and attribute is escaped by React (ADR 063).
 */

export interface SimpleFlyerInput {
  /** The site address (PUBLIC_URL) the flyer sends people to. */
  publicUrl: string;
  /** The QR code for publicUrl, as a data: URL (see qr-code.ts). */
  qrDataUrl: string;
  /** The document's language; the active one by default. */
  lang?: string;
}

export interface CommunityFlyerInput extends SimpleFlyerInput {
  /** Current offers and wants near the member, when they chose to include them. */
  neighborhood?: FlyerNeighborhood | null;
}

/** The tagline both flyers carry (spec section 2), in English; the flyers print flyerTagline(). */
export const FLYER_TAGLINE = 'Trade with Your Neighbors';

/** The tagline in the active language. */
export function flyerTagline(): string {
  return t`Trade with Your Neighbors`;
}

/** The six popular items of the simple flyer (spec section 2). */
export const POPULAR_ITEMS: readonly MessageDescriptor[] = [
  msg`Tools`,
  msg`Books`,
  msg`Electronics`,
  msg`Home Items`,
  msg`Garden Supplies`,
  msg`Services`,
];

/** The four benefits of the community flyer. */
export const BENEFITS: readonly { title: MessageDescriptor; text: MessageDescriptor }[] = [
  { title: msg`Save money`, text: msg`Get what you need by trading what you no longer use.` },
  { title: msg`Meet your neighbors`, text: msg`Trade face to face with people who live nearby.` },
  { title: msg`Waste less`, text: msg`Give useful things a second life instead of a landfill.` },
  { title: msg`Share skills`, text: msg`Swap services like repairs, tutoring or yard work.` },
];

/**
 * A translated sentence with elements in it: `sentence` gets a mark per part and returns the
 * sentence with those marks where the translation puts them; each mark becomes its part.
 */
function sentenceWith(sentence: (marks: string[]) => string, parts: readonly ReactNode[]): ReactNode {
  const mark = '\u0000'; // no translation contains it
  const marks = parts.map((_, index) => `${mark}${index}${mark}`);
  // Split at the marks: text, part index, text, part index, ..., text.
  const pieces = sentence(marks).split(mark);
  return pieces.map((piece, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one sentence never reorder
    <Fragment key={index}>{index % 2 === 1 ? parts[Number(piece)] : piece}</Fragment>
  ));
}

/** The four-step how-to of the community flyer, each given the site address. */
export const HOW_TO_STEPS: readonly ((siteAddress: string) => ReactNode)[] = [
  (siteAddress) =>
    sentenceWith(
      ([address = '']) => t`Scan the code or visit ${address}`,
      [<strong key="a">{siteAddress}</strong>],
    ),
  () => t`Create your free profile`,
  () => t`List what you offer and what you want`,
  () => t`Get matched with neighbors and trade`,
];

/** The name of the downloaded community flyer (spec section 2). */
export const COMMUNITY_FLYER_FILE_NAME = 'barterhood-community-flyer.html';

/** Longest listing title a flyer prints; longer ones end in an ellipsis. */
const LISTING_TITLE_MAX = 40;

/** The site address as printed: PUBLIC_URL without a trailing slash. */
export function flyerAddress(publicUrl: string): string {
  return publicUrl.trim().replace(/\/+$/, '');
}

/** Only data: images may enter a flyer; anything else would make it fetch from somewhere. */
function assertDataImage(url: string): string {
  if (!/^data:image\/(png|svg\+xml|gif|jpeg|webp)[;,]/.test(url)) {
    throw new Error('A flyer QR code must be a data: image URL.');
  }
  return url;
}

function truncate(text: string, max: number): string {
  const trimmed = text.trim();
  return trimmed.length > max ? `${trimmed.slice(0, max - 1).trimEnd()}…` : trimmed;
}

/** No request of any kind: only inline styles and data: images (a second line of defence). */
const FLYER_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'";

/**
 * Styles both flyers share. On screen the document shows a letter-size sheet; in print the page
 * box is letter with half-inch margins and the sheet is exactly the printable area, cut off rather
 * than spilling onto a second page.
 */
const BASE_STYLES = `
@page { size: letter; margin: 0.5in; }
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { margin: 0; background: #e2e8f0; color: #0f172a; font-family: "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; line-height: 1.3; }
.sheet { width: 8.5in; height: 11in; margin: 0 auto; padding: 0.5in; background: #ffffff; overflow: hidden; display: flex; flex-direction: column; }
h1, h2, h3, p, ol, ul { margin: 0; }
.kicker { font-size: 11pt; font-weight: 700; letter-spacing: 0.14em; text-transform: uppercase; color: #0f766e; }
.brand { color: #0f766e; }
.qr img { display: block; width: 1.6in; height: 1.6in; image-rendering: pixelated; }
.qr-caption { font-size: 12pt; font-weight: 700; margin-top: 0.05in; }
.address { font-size: 10pt; color: #334155; word-break: break-all; }
@media print {
  body { background: #ffffff; }
  .sheet { width: auto; height: 9.9in; margin: 0; padding: 0; }
}
`;

const SIMPLE_STYLES = `
.simple { text-align: center; align-items: center; gap: 0.3in; }
.simple h1 { font-size: 40pt; line-height: 1.1; margin-top: 0.1in; }
.simple .intro { font-size: 15pt; max-width: 6.2in; color: #1e293b; }
.simple h2 { font-size: 18pt; margin-bottom: 0.12in; }
.simple .popular ul { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(3, 2.1in); gap: 0.12in; }
.simple .popular li { border: 2px solid #0f766e; border-radius: 0.12in; padding: 0.14in 0.08in; font-size: 14pt; font-weight: 600; background: #f0fdfa; }
.simple .qr { display: flex; flex-direction: column; align-items: center; }
.simple .qr img { width: 2.2in; height: 2.2in; }
.simple .footer { margin-top: auto; font-size: 11pt; color: #334155; }
`;

const COMMUNITY_STYLES = `
.community { gap: 0.16in; justify-content: space-between; }
.masthead { text-align: center; }
.masthead h1 { font-size: 34pt; line-height: 1.05; }
.masthead .tagline { font-size: 18pt; font-weight: 700; color: #115e59; }
.masthead .lead { font-size: 11.5pt; color: #1e293b; margin-top: 0.04in; }
.community h2 { font-size: 13pt; color: #115e59; border-bottom: 2px solid #99f6e4; padding-bottom: 0.03in; margin-bottom: 0.08in; }
.benefits ul { list-style: none; padding: 0; display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 0.08in 0.2in; }
.benefits li { font-size: 10.5pt; }
.benefits strong { display: block; font-size: 11.5pt; }
.steps-row { display: flex; gap: 0.25in; align-items: flex-start; }
.steps { flex: 1; }
.steps ol { padding-left: 0.25in; font-size: 11pt; }
.steps li { margin-bottom: 0.06in; }
.community .qr { display: flex; flex-direction: column; align-items: center; text-align: center; width: 1.9in; }
.community .qr img { width: 1.4in; height: 1.4in; }
.nearby-lists { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 0.25in; }
.nearby h3 { font-size: 11pt; margin-bottom: 0.04in; }
.nearby ul { list-style: none; padding: 0; font-size: 9.5pt; }
.nearby li { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; padding: 0.015in 0; border-bottom: 1px dotted #cbd5e1; }
.nearby .meta { color: #475569; }
.nearby .none { font-size: 9.5pt; color: #475569; }
.tear-off .hint { font-size: 9pt; color: #475569; text-align: center; margin-bottom: 0.04in; }
.tabs { list-style: none; padding: 0; display: flex; height: 1.95in; border-top: 2px dashed #64748b; }
.tab { flex: 1 1 0; min-width: 0; border-right: 1px dashed #64748b; display: flex; align-items: center; justify-content: center; overflow: hidden; padding: 0.06in 0.02in; }
.tab:first-child { border-left: 1px dashed #64748b; }
.tab span { writing-mode: vertical-rl; transform: rotate(180deg); font-size: 8.5pt; line-height: 1.2; text-align: center; max-height: 100%; word-break: break-all; }
.tab strong { font-size: 10pt; color: #115e59; }
.roomy .masthead h1 { font-size: 46pt; }
.roomy .masthead .tagline { font-size: 24pt; }
.roomy .masthead .lead { font-size: 14pt; }
.roomy h2 { font-size: 16pt; }
.roomy .benefits li { font-size: 12.5pt; }
.roomy .benefits strong { font-size: 14pt; }
.roomy .steps ol { font-size: 14pt; }
.roomy .steps li { margin-bottom: 0.1in; }
.roomy .qr { width: 2.3in; }
.roomy .qr img { width: 1.9in; height: 1.9in; }
`;

/**
 * A full HTML document around a flyer's body. No viewport meta on purpose: a phone then lays the
 * page out at desktop width and zooms out, showing the whole sheet as it will print.
 */
function documentHtml(title: string, styles: string, body: ReactNode, lang: string): string {
  const page = (
    <html lang={lang}>
      <head>
        <meta charSet="utf-8" />
        <meta httpEquiv="Content-Security-Policy" content={FLYER_CSP} />
        <title>{title}</title>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the flyer's own constant styles, no member text */}
        <style dangerouslySetInnerHTML={{ __html: `${BASE_STYLES}${styles}` }} />
      </head>
      <body>{body}</body>
    </html>
  );
  return `<!DOCTYPE html>\n${renderToStaticMarkup(page)}\n`;
}

function QrBlock({
  publicUrl,
  qrDataUrl,
  caption,
}: {
  publicUrl: string;
  qrDataUrl: string;
  caption: string;
}) {
  const address = flyerAddress(publicUrl);
  return (
    <div className="qr">
      <img src={assertDataImage(qrDataUrl)} alt={t`QR code for ${address}`} />
      <p className="qr-caption">{caption}</p>
      <p className="address">{address}</p>
    </div>
  );
}

/**
 * The flyer of /flyer (spec section 2): the tagline, an intro about free trading with no money,
 * the six popular items and a 'Scan to visit' QR code for the site.
 */
export function simpleFlyerHtml({
  publicUrl,
  qrDataUrl,
  lang = i18n.locale || 'en',
}: SimpleFlyerInput): string {
  const productName = PRODUCT_NAME;
  const tagline = flyerTagline();
  const body = (
    <main className="sheet simple">
      <p className="kicker">{PRODUCT_NAME}</p>
      <h1>{tagline}</h1>
      <p className="intro">
        {t`${productName} is a free community marketplace where neighbors trade goods and services with each other. No money required: offer what you have and find what you need, right here in the neighborhood.`}
      </p>
      <section className="popular" aria-labelledby="popular-heading">
        <h2 id="popular-heading">{t`Popular Items to Trade`}</h2>
        <ul>
          {POPULAR_ITEMS.map((item) => (
            <li key={item.id}>{i18n._(item)}</li>
          ))}
        </ul>
      </section>
      <QrBlock publicUrl={publicUrl} qrDataUrl={qrDataUrl} caption={t`Scan to visit`} />
      <p className="footer">{t`Free to join · Trade locally · Build community`}</p>
    </main>
  );
  return documentHtml(`${PRODUCT_NAME}: ${tagline}`, SIMPLE_STYLES, body, lang);
}

/** Longest first name a flyer prints. */
const FIRST_NAME_MAX = 20;

/** One line: who (first name only), what, and its category; the title gives way first when space runs out. */
function ListingLine({ listing, verb }: { listing: FlyerListing; verb: 'offers' | 'wants' }) {
  const who = listing.firstName ? truncate(listing.firstName, FIRST_NAME_MAX) : t`A neighbor`;
  const category = translateKnown(listing.category);
  const kind = listing.isService ? t`${category} service` : category;
  const parts = [
    who,
    <strong key="title">{truncate(listing.title, LISTING_TITLE_MAX)}</strong>,
    <span key="kind" className="meta">
      ({kind})
    </span>,
  ];
  // "Ada offers <strong>Drill</strong> (tools)": {kind} is the category in brackets.
  return (
    <li>
      {sentenceWith(
        ([name = '', title = '', category = '']) =>
          verb === 'offers' ? t`${name} offers ${title} ${category}` : t`${name} wants ${title} ${category}`,
        parts,
      )}
    </li>
  );
}

function Listings({
  heading,
  listings,
  verb,
  empty,
}: {
  heading: string;
  listings: readonly FlyerListing[];
  verb: 'offers' | 'wants';
  empty: string;
}) {
  return (
    <div className="nearby">
      <h3>{heading}</h3>
      {listings.length ? (
        <ul>
          {listings.map((listing, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a printed list, never reordered
            <ListingLine key={index} listing={listing} verb={verb} />
          ))}
        </ul>
      ) : (
        <p className="none">{empty}</p>
      )}
    </div>
  );
}

function Neighborhood({ neighborhood }: { neighborhood: FlyerNeighborhood }) {
  return (
    <section className="neighborhood" aria-labelledby="nearby-heading">
      <h2 id="nearby-heading">{t`Right Now in Our Neighborhood`}</h2>
      <div className="nearby-lists">
        <Listings
          heading={t`Offered nearby`}
          listings={neighborhood.offers}
          verb="offers"
          empty={t`Nothing offered yet: be the first!`}
        />
        <Listings
          heading={t`Wanted nearby`}
          listings={neighborhood.wants}
          verb="wants"
          empty={t`No wants listed yet: add yours!`}
        />
      </div>
    </section>
  );
}

/** The tear-off tabs along the bottom, each with the name and the site address, printed sideways. */
function TearOffTabs({ publicUrl }: { publicUrl: string }) {
  const address = flyerAddress(publicUrl);
  const tagline = flyerTagline();
  return (
    <section className="tear-off" aria-label={t`Tear-off tabs`}>
      <p className="hint">{t`Take a tab and join us!`}</p>
      <ul className="tabs">
        {Array.from({ length: FLYER_TEAR_OFF_TABS }, (_, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: identical tabs
          <li key={index} className="tab">
            <span>
              <strong>{PRODUCT_NAME}</strong>
              <br />
              {tagline}
              <br />
              {address}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The community flyer of the home feed's button (spec section 2): title, tagline, four benefits,
 * four-step how-to, a QR code, 10 tear-off tabs with the site address and, when given, what the
 * neighbourhood offers and wants right now (first names only).
 */
export function communityFlyerHtml({
  publicUrl,
  qrDataUrl,
  neighborhood,
  lang = i18n.locale || 'en',
}: CommunityFlyerInput): string {
  const address = flyerAddress(publicUrl);
  const productName = PRODUCT_NAME;
  const tagline = flyerTagline();
  // Without the neighborhood's lists the rest sets larger, so the sheet has no empty band (issue 17).
  const body = (
    <main className={`sheet community${neighborhood ? '' : ' roomy'}`}>
      <header className="masthead">
        <p className="kicker">{t`Community Flyer`}</p>
        <h1 className="brand">{PRODUCT_NAME}</h1>
        <p className="tagline">{tagline}</p>
        <p className="lead">{t`A free, local way to swap goods and services. No money required.`}</p>
      </header>
      <section className="benefits" aria-labelledby="benefits-heading">
        <h2 id="benefits-heading">{t`Why Trade Locally?`}</h2>
        <ul>
          {BENEFITS.map((benefit) => (
            <li key={benefit.title.id}>
              <strong>{i18n._(benefit.title)}</strong>
              {i18n._(benefit.text)}
            </li>
          ))}
        </ul>
      </section>
      <div className="steps-row">
        <section className="steps" aria-labelledby="steps-heading">
          <h2 id="steps-heading">{t`How It Works`}</h2>
          <ol>
            {HOW_TO_STEPS.map((step, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the steps are fixed
              <li key={index}>{step(address)}</li>
            ))}
          </ol>
        </section>
        <QrBlock publicUrl={publicUrl} qrDataUrl={qrDataUrl} caption={t`Scan to join`} />
      </div>
      {neighborhood ? <Neighborhood neighborhood={neighborhood} /> : null}
      <TearOffTabs publicUrl={publicUrl} />
    </main>
  );
  return documentHtml(t`${productName} Community Flyer`, COMMUNITY_STYLES, body, lang);
}
