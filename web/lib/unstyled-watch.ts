import { selectorClasses } from '#common/css-classes.ts';

/**
 * What tells web/boot.ts that the app has drawn something the page's part of the stylesheet does not
 * style (ADR 119). A page the server drew carries only the rules for the classes in its HTML and for
 * those the app draws on its own (ADR 094, ADR 113); the whole stylesheet applies at the member's first
 * reach or once the page has settled (ADR 111). What the app drew in between (a live update's new
 * line on a card) showed unstyled, and applying the whole stylesheet at the first press moved it under
 * the pointer: the press landed on the link, the release beside it, and the click was lost. Imported
 * by web/boot.ts alone, which carries it in its own file (vite.config.ts).
 */

/** The classes of every element under `root`, and `more`: what the server wrote the page's part for. */
export function drawnClasses(root: ParentNode, more: readonly string[] = []): Set<string> {
  const classes = new Set(more);
  for (const element of root.querySelectorAll('[class]')) {
    for (const name of element.classList) classes.add(name);
  }
  return classes;
}

/** Every class the rules of `sheets` name; undefined while one of them is not loaded (or not readable). */
export function namedClasses(sheets: readonly (CSSStyleSheet | null)[]): Set<string> | undefined {
  const classes = new Set<string>();
  const read = (rules: CSSRuleList) => {
    for (const rule of rules) {
      if (rule instanceof CSSStyleRule) {
        for (const name of selectorClasses(rule.selectorText, { nested: true })) classes.add(name);
      }
      // @media, @supports, @layer and nested rules hold rules of their own.
      if ('cssRules' in rule) read((rule as CSSGroupingRule).cssRules);
    }
  };
  try {
    for (const sheet of sheets) {
      if (!sheet) return undefined;
      read(sheet.cssRules);
    }
  } catch {
    return undefined;
  }
  return classes;
}

/**
 * Whether a class is one the whole stylesheet styles and the page's part does not: not in `drawn`,
 * and named by a rule of `whole`. An icon's own class (`lucide-x`) has no rule, and needs none. The
 * whole stylesheet's classes are read the first time a class outside `drawn` comes; while it has not
 * loaded, every such class counts.
 */
export function unstyledBy(
  drawn: ReadonlySet<string>,
  whole: () => readonly (CSSStyleSheet | null)[],
): (name: string) => boolean {
  let named: Set<string> | undefined;
  return (name) => {
    if (drawn.has(name)) return false;
    named ??= namedClasses(whole());
    return named === undefined || named.has(name);
  };
}

/** Whether `element` has a class `unstyled` says is. */
function hasUnstyledClass(element: Element, unstyled: (name: string) => boolean): boolean {
  for (const name of element.classList) if (unstyled(name)) return true;
  return false;
}

/** Whether `node`, or an element inside it, has such a class. */
function drawsUnstyled(node: Node, unstyled: (name: string) => boolean): boolean {
  if (!(node instanceof Element)) return false;
  if (hasUnstyledClass(node, unstyled)) return true;
  for (const inner of node.querySelectorAll('[class]')) if (hasUnstyledClass(inner, unstyled)) return true;
  return false;
}

/**
 * Calls `onUnstyled` once, when an element under `root` is added with, or given, a class `unstyled`
 * says is. A mutation observer's callback runs in the microtask after the change, before the browser
 * lays the page out again or paints it: what the callback applies is there when the element first
 * shows. Returns the function that stops watching.
 */
export function watchForUnstyled(
  root: Node,
  unstyled: (name: string) => boolean,
  onUnstyled: () => void,
): () => void {
  const observer = new MutationObserver((records) => {
    const found = records.some((record) =>
      record.type === 'attributes'
        ? record.target instanceof Element && hasUnstyledClass(record.target, unstyled)
        : [...record.addedNodes].some((node) => drawsUnstyled(node, unstyled)),
    );
    if (!found) return;
    observer.disconnect();
    onUnstyled();
  });
  observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
  return () => observer.disconnect();
}
