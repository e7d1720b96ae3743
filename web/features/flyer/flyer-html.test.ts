import { describe, expect, it } from 'vitest';
import { FLYER_TEAR_OFF_TABS } from '#common/constants.ts';
import type { FlyerNeighborhood } from '#common/schemas/flyer.ts';
import {
  BENEFITS,
  COMMUNITY_FLYER_FILE_NAME,
  communityFlyerHtml,
  FLYER_TAGLINE,
  HOW_TO_STEPS,
  POPULAR_ITEMS,
  simpleFlyerHtml,
} from './flyer-html';

const PUBLIC_URL = 'https://barterhood.example';
// A tiny but real data URL; its content does not matter to the builders.
const QR = 'data:image/svg+xml;base64,PHN2Zy8+';

/** Parse a flyer the way a browser would. */
const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html');

const neighborhood: FlyerNeighborhood = {
  offers: [
    { title: 'Cordless drill', category: 'tools', isService: false, firstName: 'Ada' },
    { title: 'Guitar lessons', category: 'lessons', isService: true, firstName: null },
  ],
  wants: [{ title: 'Kayak paddle', category: 'sporting', isService: false, firstName: 'Ben' }],
};

/** Every http(s) address written anywhere in the document (text, attributes, styles). */
const addressesIn = (html: string) => [...html.matchAll(/https?:\/\/[^\s"'<>)]+/g)].map((m) => m[0]);

describe.each([
  ['simple', (url = PUBLIC_URL, qr = QR) => simpleFlyerHtml({ publicUrl: url, qrDataUrl: qr })],
  [
    'community',
    (url = PUBLIC_URL, qr = QR) => communityFlyerHtml({ publicUrl: url, qrDataUrl: qr, neighborhood }),
  ],
] as const)('%s flyer: a self-contained letter-size document', (_name, build) => {
  it('is a full HTML document with inline styles only: no scripts, links, frames or remote URLs', () => {
    const html = build();
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).not.toMatch(/<script|<link|<iframe|<object|<embed|@import|url\(|\son\w+=/i);
    expect(addressesIn(html).every((address) => address === PUBLIC_URL)).toBe(true);
    const doc = parse(html);
    expect(doc.documentElement.lang).toBe('en');
    expect(doc.querySelectorAll('style')).toHaveLength(1);
    expect([...doc.querySelectorAll('img')].map((img) => img.getAttribute('src'))).toEqual([QR]);
    expect(doc.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content')).toBe(
      "default-src 'none'; img-src data:; style-src 'unsafe-inline'",
    );
  });

  it('prints on letter paper with half-inch margins', () => {
    expect(build()).toContain('@page { size: letter; margin: 0.5in; }');
  });

  it('shows a QR code labelled with the site address, and the address as text', () => {
    const doc = parse(build('https://barterhood.example/'));
    expect(doc.querySelector('img')?.getAttribute('alt')).toBe('QR code for https://barterhood.example');
    expect(doc.querySelector('.qr .address')?.textContent).toBe('https://barterhood.example');
  });

  it('escapes the address and refuses a QR code that is not a data: image', () => {
    const html = build('https://x.example/"><script>alert(1)</script>');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(() => build(PUBLIC_URL, 'https://qr.example/code.png')).toThrow(/data: image/);
    expect(() => build(PUBLIC_URL, 'javascript:alert(1)')).toThrow(/data: image/);
  });
});

describe('simpleFlyerHtml', () => {
  it('has the tagline, the intro about free trading with no money, six popular items and Scan to visit', () => {
    const doc = parse(simpleFlyerHtml({ publicUrl: PUBLIC_URL, qrDataUrl: QR }));
    expect(doc.querySelector('h1')?.textContent).toBe(FLYER_TAGLINE);
    expect(doc.querySelector('.intro')?.textContent).toMatch(/free .*No money required/);
    expect([...doc.querySelectorAll('.popular li')].map((li) => li.textContent)).toEqual([
      'Tools',
      'Books',
      'Electronics',
      'Home Items',
      'Garden Supplies',
      'Services',
    ]);
    expect(POPULAR_ITEMS).toHaveLength(6);
    expect(doc.querySelector('.qr-caption')?.textContent).toBe('Scan to visit');
  });
});

describe('communityFlyerHtml', () => {
  it('has a title, the tagline, four benefits, four steps with the address and ten tear-off tabs', () => {
    const doc = parse(communityFlyerHtml({ publicUrl: PUBLIC_URL, qrDataUrl: QR }));
    expect(doc.querySelector('h1')?.textContent).toBe('Barterhood');
    expect(doc.querySelector('.tagline')?.textContent).toBe(FLYER_TAGLINE);
    expect(doc.querySelectorAll('.benefits li')).toHaveLength(4);
    expect(BENEFITS).toHaveLength(4);
    const steps = [...doc.querySelectorAll('.steps li')].map((li) => li.textContent);
    expect(steps).toHaveLength(HOW_TO_STEPS.length);
    expect(steps[0]).toBe(`Scan the code or visit ${PUBLIC_URL}`);
    const tabs = [...doc.querySelectorAll('.tabs .tab')];
    expect(tabs).toHaveLength(FLYER_TEAR_OFF_TABS);
    expect(FLYER_TEAR_OFF_TABS).toBe(10);
    for (const tab of tabs) expect(tab.textContent).toBe(`Barterhood${FLYER_TAGLINE}${PUBLIC_URL}`);
    expect(doc.querySelector('.neighborhood')).toBeNull();
    expect(COMMUNITY_FLYER_FILE_NAME).toBe('barterhood-community-flyer.html');
  });

  it('sets the tabs sideways, as tear-off strips along the bottom', () => {
    const html = communityFlyerHtml({ publicUrl: PUBLIC_URL, qrDataUrl: QR });
    expect(html).toMatch(/\.tab span \{ writing-mode: vertical-rl; transform: rotate\(180deg\);/);
    // Leftover height is shared between the sections, not left as one empty band above the tabs.
    expect(html).toMatch(/\.community \{ gap: 0\.16in; justify-content: space-between; \}/);
    expect(parse(html).querySelector('.sheet > :last-child')?.className).toBe('tear-off');
  });

  it("lists the neighbourhood's offers and wants with first names, 'A neighbor' when there is none", () => {
    const doc = parse(communityFlyerHtml({ publicUrl: PUBLIC_URL, qrDataUrl: QR, neighborhood }));
    const [offered, wanted] = [...doc.querySelectorAll('.nearby')];
    expect(offered?.querySelector('h3')?.textContent).toBe('Offered nearby');
    expect([...(offered?.querySelectorAll('li') ?? [])].map((li) => li.textContent)).toEqual([
      'Ada offers Cordless drill (tools)',
      'A neighbor offers Guitar lessons (lessons service)',
    ]);
    expect(wanted?.querySelector('li')?.textContent).toBe('Ben wants Kayak paddle (sporting)');
  });

  it('says so when the neighbourhood has nothing listed yet', () => {
    const doc = parse(
      communityFlyerHtml({ publicUrl: PUBLIC_URL, qrDataUrl: QR, neighborhood: { offers: [], wants: [] } }),
    );
    expect([...doc.querySelectorAll('.nearby .none')].map((p) => p.textContent)).toEqual([
      'Nothing offered yet: be the first!',
      'No wants listed yet: add yours!',
    ]);
  });

  it('escapes what members typed and shortens long titles', () => {
    const html = communityFlyerHtml({
      publicUrl: PUBLIC_URL,
      qrDataUrl: QR,
      neighborhood: {
        offers: [
          {
            title: '<img src=x onerror=alert(1)> & "friends"',
            category: 'tools',
            isService: false,
            firstName: "<b>O'Brien</b>",
          },
          { title: 'x'.repeat(200), category: 'tools', isService: false, firstName: 'Al' },
        ],
        wants: [
          {
            title: '</style><script>alert(2)</script>',
            category: 'books',
            isService: false,
            firstName: 'Cy',
          },
        ],
      },
    });
    expect(html).not.toMatch(/<script|<img src=x|<b>|onerror=alert\(1\)>/);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;friends&quot;');
    expect(html).toContain('&lt;b&gt;O&#x27;Brien&lt;/b&gt;');
    expect(html).toContain('&lt;/style&gt;&lt;script&gt;alert(2)&lt;/script&gt;');
    const doc = parse(html);
    expect(doc.querySelectorAll('img')).toHaveLength(1);
    expect(doc.querySelectorAll('script')).toHaveLength(0);
    const long = doc.querySelectorAll('.nearby li strong')[1]?.textContent ?? '';
    expect(long).toHaveLength(40);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('the flyers as a member gets them', () => {
  // The documents as they were when they were written by hand (issue 29 rendered them with React):
  // a change here is a change to every printed flyer, so it must be meant.
  it('stays the same document', () => {
    expect(simpleFlyerHtml({ publicUrl: PUBLIC_URL, qrDataUrl: QR })).toMatchSnapshot();
    expect(communityFlyerHtml({ publicUrl: PUBLIC_URL, qrDataUrl: QR, neighborhood })).toMatchSnapshot();
    expect(communityFlyerHtml({ publicUrl: PUBLIC_URL, qrDataUrl: QR })).toMatchSnapshot();
  });
});
