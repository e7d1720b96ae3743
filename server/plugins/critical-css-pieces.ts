/**
 * A stylesheet cut into the pieces a drawn page's part is chosen from (critical-css.ts, ADR 094).
 * Parsing the app's stylesheet took 70 ms of every start, with postcss loaded for it alone: the web
 * build does it once and writes the pieces beside its manifest (scripts/critical-css-build.ts,
 * ADR 122), where the server reads them.
 */
import postcss, { type ChildNode } from 'postcss';
import { selectorClasses } from '#common/css-classes.ts';
import type { CriticalPiece } from './critical-css';

/** At-rules holding rules a page may not need; any other at-rule (@property, @keyframes…) is kept whole. */
const CONDITIONAL_AT_RULES = new Set(['media', 'supports', 'layer', 'container', 'scope', 'starting-style']);

function piecesOf(nodes: ChildNode[] | undefined): CriticalPiece[] {
  const pieces: CriticalPiece[] = [];
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

/** The stylesheet's pieces; throws when postcss cannot read it. */
export function criticalPieces(stylesheet: string): CriticalPiece[] {
  return piecesOf(postcss.parse(stylesheet).nodes);
}
