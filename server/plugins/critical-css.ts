/**
 * The part of the app's stylesheet a drawn page needs (ADR 094): every rule of the stylesheet except
 * those whose selectors name a class the page does not use. A drawn page carries this part in its
 * head, so it paints with its HTML alone; the whole stylesheet follows with the app's scripts
 * (web/boot.ts). On a phone's slow line the page's first response then fits TCP's first window
 * (about 14 KB), where the whole stylesheet written in took it over.
 *
 * The stylesheet is parsed once (postcss); a page's part is chosen by the classes in its
 * `class="…"` attributes, a set lookup per rule. A rule is kept unless one of the classes each of
 * its selectors needs is missing: only classes outside parentheses count as needed (those inside
 * `:not()`, `:is()`, `:where()` or `:has()` may not be), so a doubtful rule is kept, never dropped.
 */
import postcss, { type ChildNode } from 'postcss';
import { selectorClasses } from '#common/css-classes.ts';

/** A rule kept when `needs` is null or one of its selectors' classes are all on the page; or a block of them. */
type Piece = { text: string; needs: string[][] | null } | { open: string; children: Piece[] };

/** At-rules holding rules a page may not need; any other at-rule (@property, @keyframes…) is kept whole. */
const CONDITIONAL_AT_RULES = new Set(['media', 'supports', 'layer', 'container', 'scope', 'starting-style']);

function piecesOf(nodes: ChildNode[] | undefined): Piece[] {
  const pieces: Piece[] = [];
  for (const node of nodes ?? []) {
    if (node.type === 'rule') {
      const selectors = node.selectors.map((selector) => selectorClasses(selector));
      const needs = selectors.some((classes) => classes.length === 0) ? null : selectors;
      pieces.push({ text: node.toString(), needs });
    } else if (node.type === 'atrule' && node.nodes && CONDITIONAL_AT_RULES.has(node.name.toLowerCase())) {
      pieces.push({
        open: `@${node.name}${node.raws.afterName ?? ' '}${node.params}{`,
        children: piecesOf(node.nodes),
      });
    } else if (node.type === 'atrule' || node.type === 'comment') {
      pieces.push({
        text: node.toString() + (node.type === 'atrule' && !node.nodes ? ';' : ''),
        needs: null,
      });
    }
  }
  return pieces;
}

function write(pieces: Piece[], classes: ReadonlySet<string>): string {
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

/** The stylesheet, parsed once; then its part for a page's classes (`classesInHtml`). */
export function criticalCss(stylesheet: string): (classes: ReadonlySet<string>) => string {
  const pieces = piecesOf(postcss.parse(stylesheet).nodes);
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
