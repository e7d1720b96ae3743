/**
 * The part of the app's stylesheet a drawn page needs (ADR 094): every rule of the stylesheet except
 * those whose selectors name a class the page does not use. A drawn page carries this part in its
 * head, so it paints with its HTML alone; the whole stylesheet follows with the app's scripts
 * (web/boot.ts). On a phone's slow line the page's first response then fits TCP's first window
 * (about 14 KB), where the whole stylesheet written in took it over.
 *
 * The stylesheet is parsed when the web app is built (critical-css-pieces.ts, ADR 122), not at each
 * start; a page's part is chosen by the classes in its `class="…"` attributes, a set lookup per
 * rule. A rule is kept unless one of the classes each of its selectors needs is missing: only classes
 * outside parentheses count as needed (those inside `:not()`, `:is()`, `:where()` or `:has()` may
 * not be), so a doubtful rule is kept, never dropped.
 */

/** Where the web build writes each stylesheet's pieces, by its URL, under dist/web (never served). */
export const CRITICAL_CSS_FILE = '.vite/critical-css.json';

/** A rule kept when `needs` is null or one of its selectors' classes are all on the page; or a block of them. */
export type CriticalPiece =
  | { text: string; needs: string[][] | null }
  | { open: string; children: CriticalPiece[] };

function write(pieces: readonly CriticalPiece[], classes: ReadonlySet<string>): string {
  let css = '';
  for (const piece of pieces) {
    if ('text' in piece) {
      if (piece.needs === null || piece.needs.some((needed) => needed.every((name) => classes.has(name)))) {
        css += piece.text;
      }
    } else {
      const inner = write(piece.children, classes);
      if (inner) css += `${piece.open}${inner}}`;
    }
  }
  return css;
}

/** A stylesheet's part for a page's classes (`classesInHtml`), from its pieces (`criticalPieces`). */
export function criticalCss(pieces: readonly CriticalPiece[]): (classes: ReadonlySet<string>) => string {
  return (classes) => write(pieces, classes);
}

const ENTITIES: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' };

/** The classes in an HTML page's `class="…"` attributes (as React writes them), entities undone. */
export function classesInHtml(html: string): Set<string> {
  const classes = new Set<string>();
  for (const [, value = ''] of html.matchAll(/\sclass="([^"]*)"/g)) {
    const decoded = value.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-z]+);/g, (entity, name: string) => {
      if (name.startsWith('#x')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
      if (name.startsWith('#')) return String.fromCodePoint(Number.parseInt(name.slice(1), 10));
      return ENTITIES[name] ?? entity;
    });
    for (const name of decoded.split(/\s+/)) if (name) classes.add(name);
  }
  return classes;
}
