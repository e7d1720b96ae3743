import { describe, expect, it } from 'vitest';
import { deferScripts, isRenderedPage, jsonForHtml } from './page-render';

const TEMPLATE = `<!doctype html>
<html lang="en">
  <head>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react-1.js">
    <link rel="modulepreload" crossorigin href="/assets/utils-2.js">
    <link rel="stylesheet" crossorigin href="/assets/index-3.css">
  </head>
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

  it('asks for the scripts after the page has painted, keeping the stylesheet in the head', () => {
    const page = deferScripts(TEMPLATE, 'assets/boot-9.js');
    expect(page).not.toContain('<script type="module" crossorigin src="/assets/index-abc.js">');
    expect(page).not.toContain('modulepreload');
    expect(page).toContain('<link rel="stylesheet" crossorigin href="/assets/index-3.css">');
    const list = /<script type="application\/json" id="app-scripts">(.*?)<\/script>/.exec(page)?.[1];
    expect(JSON.parse(list ?? 'null')).toEqual({
      entry: '/assets/index-abc.js',
      preload: ['/assets/react-1.js', '/assets/utils-2.js'],
    });
    expect(page).toMatch(/<script type="module" src="\/assets\/boot-9\.js"><\/script><\/body>/);
    expect(() => deferScripts('<html><body></body></html>', 'assets/boot-9.js')).toThrow(/entry script/);
  });
});
