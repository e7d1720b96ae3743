/**
 * `npm run i18n:known`: list every English text the server and the shared schemas can send to the web
 * app (error messages, validation messages, category names) in web/i18n/known-messages.generated.ts,
 * each under its own text as an explicit id, so `npm run i18n:extract` puts them in the catalogues and
 * the web app shows them in the member's language (translateKnown, ADR 036).
 *
 * Found by reading the TypeScript of server/ and common/ (tests left out):
 * - the message argument of HttpError and its helpers (badRequest, conflict, ...), and the default
 *   message of those helpers;
 * - the message of zod checks (`.min(1, 'Title is required')`, `.refine(fn, '...')`) and `message:`
 *   or `error:` properties;
 * - the values of objects named `..._MESSAGES`;
 * - template literals whose parts are constants (`Title must be at most ${MAX} characters`) are
 *   written out; others (with a name or an id in them) stay English and are left out.
 * Only texts that begin with a capital letter are taken: lower-case ones are for developers
 * ("sort must be one of recent, distance").
 *
 * `--check` exits 1 when the file is out of date (a test runs it).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { GOODS_CATEGORIES, SERVICE_CATEGORIES } from '#common/categories.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
export const KNOWN_MESSAGES_FILE = path.join(ROOT, 'web/i18n/known-messages.generated.ts');

const ERROR_HELPERS = new Set([
  'HttpError',
  'badRequest',
  'unauthorized',
  'forbidden',
  'notFound',
  'conflict',
  'tooManyRequests',
  'serviceUnavailable',
]);
const ZOD_CHECKS = new Set(['min', 'max', 'length', 'regex', 'refine', 'email', 'gte', 'lte', 'positive']);
const MESSAGE_PROPERTIES = new Set(['message', 'error']);

/** The project's tsconfig.json: its files, and the options that resolve its imports (#common/*, ...). */
function projectConfig(): ts.ParsedCommandLine {
  const config = ts.readConfigFile(path.join(ROOT, 'tsconfig.json'), ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
}

function sourceFiles(parsed: ts.ParsedCommandLine): string[] {
  return parsed.fileNames.filter((file) => {
    const relative = path.relative(ROOT, file);
    return (
      (relative.startsWith('server/') || relative.startsWith('common/')) &&
      !relative.includes('.test.') &&
      !relative.startsWith('server/test/')
    );
  });
}

/** The text of a string literal, or of a template whose parts are constants; otherwise null. */
function textOf(node: ts.Node, checker: ts.TypeChecker): string | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) {
    let text = node.head.text;
    for (const span of node.templateSpans) {
      const value = constantOf(span.expression, checker);
      if (value === null) return null;
      text += value + span.literal.text;
    }
    return text;
  }
  return null;
}

function constantOf(expression: ts.Expression, checker: ts.TypeChecker): string | null {
  if (ts.isNumericLiteral(expression) || ts.isStringLiteral(expression)) return expression.text;
  if (!ts.isIdentifier(expression)) return null;
  let symbol = checker.getSymbolAtLocation(expression);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const declaration = symbol?.valueDeclaration;
  if (!declaration || !ts.isVariableDeclaration(declaration) || !declaration.initializer) return null;
  if (!(ts.getCombinedNodeFlags(declaration) & ts.NodeFlags.Const)) return null;
  const initializer = declaration.initializer;
  if (ts.isNumericLiteral(initializer)) return String(Number(initializer.text.replace(/_/g, '')));
  if (ts.isStringLiteral(initializer)) return initializer.text;
  return null;
}

function calleeName(call: ts.CallExpression | ts.NewExpression): string | null {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return null;
}

function isUserFacing(text: string): boolean {
  // Settings' names ("EVENT_HEARTBEAT_SECONDS must be ...") are for whoever runs the server.
  return (
    /^[A-Z]/.test(text) && !/^[A-Z][A-Z0-9]*_/.test(text) && /\s/.test(text.trim()) && !text.includes('\n')
  );
}

export function collectKnownMessages(): string[] {
  const parsed = projectConfig();
  const program = ts.createProgram(sourceFiles(parsed), { ...parsed.options, allowJs: false, noEmit: true });
  const checker = program.getTypeChecker();
  const found = new Set<string>();
  const take = (node: ts.Node | undefined) => {
    if (!node) return;
    const text = textOf(node, checker);
    if (text !== null && isUserFacing(text)) found.add(text);
  };

  for (const file of program.getSourceFiles()) {
    const relative = path.relative(ROOT, file.fileName);
    if (!(relative.startsWith('server/') || relative.startsWith('common/'))) continue;
    if (relative.includes('.test.') || relative.startsWith('server/test/')) continue;
    // The e-mail's sentences are catalogue messages of their own (server/mail/mail-messages.ts, ADR 060),
    // extracted from there: not texts the web app receives.
    if (relative.startsWith('server/mail/')) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
        const name = calleeName(node);
        const args = node.arguments ?? [];
        if (name && ERROR_HELPERS.has(name)) for (const arg of args) take(arg);
        if (name && ZOD_CHECKS.has(name)) for (const arg of args) take(arg);
      }
      if (
        ts.isPropertyAssignment(node) &&
        ts.isIdentifier(node.name) &&
        MESSAGE_PROPERTIES.has(node.name.text)
      ) {
        take(node.initializer);
      }
      if (ts.isParameter(node) && ts.isIdentifier(node.name) && node.name.text === 'message') {
        take(node.initializer);
      }
      if (
        ts.isVariableDeclaration(node) &&
        ts.isIdentifier(node.name) &&
        node.name.text.endsWith('_MESSAGES') &&
        node.initializer
      ) {
        let initializer: ts.Expression = node.initializer;
        while (ts.isAsExpression(initializer) || ts.isSatisfiesExpression(initializer)) {
          initializer = initializer.expression;
        }
        if (ts.isObjectLiteralExpression(initializer)) {
          for (const property of initializer.properties) {
            if (ts.isPropertyAssignment(property)) take(property.initializer);
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  for (const category of [...GOODS_CATEGORIES, ...SERVICE_CATEGORIES]) found.add(category);
  return [...found].sort();
}

export function renderKnownMessages(messages: string[]): string {
  const lines = messages.map((text) => {
    const literal = JSON.stringify(text);
    return `  msg({ id: ${literal}, message: ${literal} }),`;
  });
  return [
    '// Generated by `npm run i18n:known` (scripts/i18n-known-messages.ts): do not edit.',
    '// English texts the server and the shared schemas send, listed for the catalogues (ADR 036).',
    "import { msg } from '@lingui/core/macro';",
    '',
    'export const KNOWN_MESSAGES = [',
    ...lines,
    '];',
    '',
  ].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const rendered = renderKnownMessages(collectKnownMessages());
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(KNOWN_MESSAGES_FILE, 'utf8');
    } catch {}
    if (current !== rendered) {
      console.error('web/i18n/known-messages.generated.ts is out of date: run npm run i18n:known');
      process.exit(1);
    }
  } else {
    writeFileSync(KNOWN_MESSAGES_FILE, rendered);
    console.log(`Wrote ${path.relative(ROOT, KNOWN_MESSAGES_FILE)}`);
  }
}
