/**
 * The class names in a CSS selector, as the server's part of the stylesheet for a drawn page reads
 * them (server/plugins/critical-css.ts, ADR 094) and as web/boot.ts reads the whole stylesheet's rules
 * (web/lib/unstyled-watch.ts, ADR 119).
 */

/** A CSS identifier's escapes undone: `\:` is `:`, `\31 0` is `10`. */
function unescapeCss(identifier: string): string {
  return identifier.replace(/\\(?:([0-9a-fA-F]{1,6})\s?|([^\n]))/g, (_match, hex?: string, char?: string) => {
    if (hex === undefined) return char ?? '';
    const codePoint = Number.parseInt(hex, 16);
    return codePoint > 0 && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : '\ufffd';
  });
}

/**
 * The classes a selector names, escapes undone, none from attribute values or strings. By default
 * only those it needs: the ones outside parentheses (a class inside `:not(.x)` is one the element
 * must not have; one inside `:is()` only may be needed). With `nested`, those inside them too.
 */
export function selectorClasses(selector: string, { nested = false } = {}): string[] {
  const classes: string[] = [];
  let depth = 0;
  for (let at = 0; at < selector.length; at++) {
    const char = selector[at];
    if (char === '\\') {
      at++;
    } else if (char === '"' || char === "'") {
      const end = selector.indexOf(char, at + 1);
      at = end === -1 ? selector.length : end;
    } else if (char === '[') {
      // An attribute selector (a class's own brackets are escaped, `\[`, and skipped above).
      const end = selector.indexOf(']', at + 1);
      at = end === -1 ? selector.length : end;
    } else if (char === '(') {
      depth++;
    } else if (char === ')') {
      depth = Math.max(0, depth - 1);
    } else if (char === '.' && (depth === 0 || nested)) {
      const name = /^(?:\\[0-9a-fA-F]{1,6}\s?|\\[^\n]|[\w-]|[^\p{ASCII}])+/u.exec(
        selector.slice(at + 1),
      )?.[0];
      if (name) {
        classes.push(unescapeCss(name));
        at += name.length;
      }
    }
  }
  return classes;
}
