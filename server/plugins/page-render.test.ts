import { describe, expect, it } from 'vitest';
import { criticalPieces } from './critical-css-pieces';
import {
  assemblePage,
  deferScripts,
  deferStylesheets,
  firstPhotoOf,
  isRenderedPage,
  jsonForHtml,
  STARTING_STYLE,
  withCriticalCss,
} from './page-render';

const BOOT = { file: 'assets/boot-9.js', imports: [], helper: 'assets/import-chunk-4.js' };

const TEMPLATE = `<!doctype html>
<html lang="en">
  <head>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react-1.js">
    <link rel="modulepreload" crossorigin href="/assets/utils-2.js">
    <link rel="stylesheet" crossorigin href="/assets/index-3.css">
  <link rel="manifest" href="/manifest.webmanifest"></head>
  <body>
    <div id="root"></div>
  </body>
</html>`;

describe("the server's render of a page", () => {
  it('draws the first screens only: the feed, the profile, a barter', () => {
    for (const url of ['/', '/?tab=everything', '/profile', '/profile?tab=saved', '/barters/12']) {
      expect(isRenderedPage(url), url).toBe(true);
    }
    for (const url of [
      '/barters',
      '/barters/12/x',
      '/barters/abc',
      '/barters/%31',
      '/login',
      '/profile/',
      '//profile',
      '/api/items',
    ]) {
      expect(isRenderedPage(url), url).toBe(false);
    }
  });

  it('writes data no text in it can end its script element with', () => {
    const data = { title: '</script><script>alert(1)</script>', line: 'a\u2028b\u2029c' };
    const written = jsonForHtml(data);
    expect(written).not.toContain('</script');
    expect(written).not.toContain('<');
    expect(written).not.toMatch(/[\u2028\u2029]/);
    expect(JSON.parse(written)).toEqual(data);
  });

  it('asks for the scripts after the page has painted, the boot script alone before it', () => {
    const page = deferScripts(TEMPLATE, BOOT, ['/assets/index-3.css']);
    expect(page).not.toContain('<script type="module" crossorigin src="/assets/index-abc.js">');
    // Nothing is preloaded: the entry, its imports and boot's helper wait in the list (ADR 115).
    expect(page).not.toContain('modulepreload');
    expect(page).toContain('<link rel="stylesheet" crossorigin href="/assets/index-3.css">');
    const list = /<script type="application\/json" id="app-scripts">(.*?)<\/script>/.exec(page)?.[1];
    expect(JSON.parse(list ?? 'null')).toEqual({
      entry: '/assets/index-abc.js',
      helper: '/assets/import-chunk-4.js',
      preload: ['/assets/react-1.js', '/assets/utils-2.js'],
      styles: ['/assets/index-3.css'],
      manifest: '/manifest.webmanifest',
    });
    expect(page).not.toContain('rel="manifest"');
    expect(page).toMatch(/<\/script><script type="module" src="\/assets\/boot-9\.js"><\/script><\/body>/);
    // The classes the pages' parts are written for beyond their own go with the stylesheets (ADR 119).
    const withUnprompted = deferScripts(TEMPLATE, BOOT, ['/assets/index-3.css'], ['min-w-5', 'bg-red-600']);
    const unprompted = /id="app-scripts">(.*?)<\/script>/.exec(withUnprompted)?.[1];
    expect(JSON.parse(unprompted ?? 'null')).toMatchObject({ unprompted: ['min-w-5', 'bg-red-600'] });
    // With no stylesheet deferred there is nothing to apply, so no list.
    expect(deferScripts(TEMPLATE, BOOT, [], ['min-w-5'])).not.toContain('unprompted');
    // A boot script built with imports of its own has them preloaded beside it.
    const withImport = deferScripts(TEMPLATE, { ...BOOT, imports: ['assets/shared-5.js'] });
    expect(withImport).toContain(
      '<link rel="modulepreload" href="/assets/shared-5.js"><script type="module" src="/assets/boot-9.js"></script></body>',
    );
    // A touch phone's scroll indicator is left undrawn while the page starts (ADR 112), last in the head.
    expect(page).toContain(`${STARTING_STYLE}</head>`);
    expect(STARTING_STYLE).toMatch(
      /@media \(hover: none\) and \(pointer: coarse\) and \(scripting: enabled\) \{ html \{ scrollbar-width: none \} \}/,
    );
    expect(() => deferScripts('<html><body></body></html>', BOOT)).toThrow(/entry script/);
  });

  it("writes the part of the stylesheet a page uses where its link was, for each page's own classes", () => {
    const css = '.a{color:red}.b::after{content:"$& $\'"}body{margin:0}';
    const { page, stylesheets } = deferStylesheets(TEMPLATE, (href) =>
      href === '/assets/index-3.css' ? criticalPieces(css) : undefined,
    );
    expect(page).not.toContain('rel="stylesheet"');
    expect(stylesheets.map((stylesheet) => stylesheet.href)).toEqual(['/assets/index-3.css']);
    const withB = withCriticalCss(page.replace('<div id="root"></div>', '<p class="b x">B</p>'), stylesheets);
    expect(withB).toContain(`<style>.b::after{content:"$& $'"}body{margin:0}</style>`);
    expect(withB).not.toContain('data-critical');
    const withA = withCriticalCss(page.replace('<div id="root"></div>', '<p class="a">A</p>'), stylesheets);
    expect(withA).toContain('<style>.a{color:red}body{margin:0}</style>');
    // What the app may draw on its own before the whole stylesheet applies is styled too (ADR 113).
    const withAlways = withCriticalCss(
      page.replace('<div id="root"></div>', '<p class="a">A</p>'),
      stylesheets,
      ['b'],
    );
    expect(withAlways).toContain(`<style>.a{color:red}.b::after{content:"$& $'"}body{margin:0}</style>`);
    // No pieces (the build left the stylesheet out, scripts/critical-css-build.test.ts): the link
    // stays, nothing deferred.
    const kept = deferStylesheets(TEMPLATE, () => undefined);
    expect(kept.page).toBe(TEMPLATE);
    expect(kept.stylesheets).toEqual([]);
    expect(withCriticalCss(kept.page, kept.stylesheets)).toBe(TEMPLATE);
  });

  it("puts a member's text in the page as it is, never as a replacement pattern", () => {
    const hostile = "Lamp $' $` $& $$ $1 </div>";
    const html = `<h1>${hostile.replace('</div>', '&lt;/div&gt;')}</h1>`;
    const page = assemblePage(deferScripts(TEMPLATE, BOOT), 'es', html, { title: hostile });
    expect(page).toContain(`<div id="root">${html}</div>`);
    expect(page).toContain('<html lang="es">');
    expect(page.match(/<html/g)).toHaveLength(1);
    expect(page.match(/id="page-data"/g)).toHaveLength(1);
    const data = /<script type="application\/json" id="page-data">(.*?)<\/script>/.exec(page)?.[1];
    expect(JSON.parse(data ?? 'null')).toEqual({ title: hostile });
  });

  it('names the first photo of the screen for a preload, only when it is one of ours', () => {
    const card = (src: string, priority = ' fetchpriority="high"') =>
      `<article><img src="${src}" alt=""${priority} class="x"></article>`;
    expect(firstPhotoOf(`<main>${card('/photos/ab12.webp')}${card('/photos/cd34.webp', '')}</main>`)).toBe(
      '/photos/ab12.webp',
    );
    expect(firstPhotoOf(card('/photos/ab12.webp', ''))).toBeNull();
    for (const src of [
      'https://evil.example/x.webp',
      '/photos/../secret.webp',
      '/photos/a.webp>; rel=x',
      '/photos/a.svg',
    ]) {
      expect(firstPhotoOf(card(src)), src).toBeNull();
    }
  });
});
