/**
 * Hostile input on every route (issue 12, point 4): no request a client can make answers 5xx.
 *
 * The routes are read from the app itself (printRoutes), so a new route is fuzzed without editing
 * this file; their fields come from the OpenAPI document the route schemas produce. Each field of a
 * body, query string or path gets each hostile value in turn, the other fields holding plausible
 * values, so a value that passes validation reaches the handler and the database.
 */
import { eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '#common/error-codes.ts';
import { EVENTS_PATH } from '#common/member-events.ts';
import { FEED_NAMES } from '#common/schemas/feed.ts';
import { PHOTO_ERROR_CODES } from '#common/schemas/listings.ts';
import { items } from '../db/schema/trading';
import { createItem, createUser, createWant, sessionCookiesFor } from './factories';
import { buildTestApp } from './helpers';

/** Text no field may let through to a 5xx. */
const HOSTILE_TEXT: Record<string, string> = {
  NUL: 'ab\u0000cd',
  'only NUL': '\u0000',
  'lone surrogate': '\ud800',
  'lone surrogate in text': 'abc\udfffdef',
  'RTL override': 'abc\u202edef',
  'C1 control': 'abc\u0085def',
  '10,000 characters': 'x'.repeat(10_000),
  hex: '0x10',
  exponent: '1e3',
  'huge number': '9'.repeat(400),
  negative: '-1',
  blank: '',
  'search syntax': `'!:* & | ( ) <-> \\ % _ "`,
  'SQL quote': "' OR 1=1 --",
};

/** JSON values of the wrong type, for body fields. */
const WRONG_TYPES: Record<string, unknown> = {
  'a number': 16,
  'a float': 0.1,
  'a huge number': 1e308,
  true: true,
  null: null,
  'an array': ['a'],
  'an object': { a: 1 },
};

/** Whole bodies of the wrong shape. */
const WRONG_BODIES: Record<string, unknown> = {
  null: null,
  'an array': [],
  'a string': 'text',
  'a number': 42,
};

let emails = 0;
/** Plausible values by field name, so the other fields of a request pass validation. */
const EXAMPLES: Record<string, () => unknown> = {
  title: () => 'Cordless drill',
  description: () => 'Works well, two batteries.',
  category: () => 'tools',
  imageUrl: () => null,
  image: () => 'data:image/png;base64,AAAA',
  email: () => `fuzz${++emails}@example.test`,
  password: () => 'Qv7-barter-fuzz-91',
  firstName: () => 'Fuzz',
  lastName: () => 'Tester',
  name: () => 'Fuzz Tester',
  location: () => 'Portland, Oregon, United States',
  latitude: () => 45.52,
  longitude: () => -122.68,
  lat: () => '45.52',
  lon: () => '-122.68',
  q: () => 'drill',
  feedName: () => 'everything',
};

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  minLength?: number;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
}

/** A value a JSON schema accepts, for fields EXAMPLES does not name. */
function sampleOf(schema: JsonSchema): unknown {
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  const options = schema.anyOf ?? [];
  const nonNull = options.find((option) => option.type !== 'null');
  if (nonNull) return sampleOf(nonNull);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((t) => t !== 'null') ?? 'string';
  if (type === 'boolean') return false;
  if (type === 'integer' || type === 'number') return schema.minimum ?? 1;
  if (type === 'object') return {};
  if (type === 'array') return [];
  return 'a'.repeat(Math.max(schema.minLength ?? 0, 5));
}

interface Operation {
  parameters?: Array<{ in: 'query' | 'path' | 'header' | 'cookie'; name: string; schema: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

interface Route {
  method: string;
  /** As registered, with :params and *. */
  url: string;
  query: Record<string, JsonSchema>;
  body: Record<string, JsonSchema> | null;
  params: string[];
}

/**
 * Every registered route and method, read from Fastify's route tree, where each line is its parent's
 * text plus its own (HEAD left out: it is GET's).
 */
function registeredRoutes(tree: string): Array<{ method: string; url: string }> {
  const found: Array<{ method: string; url: string }> = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[├└]── (.*?)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    stack.length = depth;
    stack.push(match[2] ?? '');
    for (const method of (match[3] ?? '').split(',').map((m) => m.trim())) {
      if (method && method !== 'HEAD') found.push({ method, url: stack.join('') });
    }
  }
  return found;
}

const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

// One app for the file; built at load so each route is a test of its own.
const t = await buildTestApp({
  DEMO_LOGIN: 'true',
  LOGIN_RATE_LIMIT: '100000',
  LOGIN_ACCOUNT_RATE_LIMIT: '100000',
  REGISTER_RATE_LIMIT: '100000',
  DEMO_LOGIN_RATE_LIMIT: '100000',
  ANALYZE_RATE_LIMIT: '100000',
  GATE_RATE_LIMIT: '100000',
});
afterAll(() => t.close());

const openApi = t.app.swagger() as { paths: Record<string, Record<string, Operation>> };
const routes: Route[] = registeredRoutes(t.app.printRoutes()).map(({ method, url }) => {
  const operation = openApi.paths[openApiPath(url)]?.[method.toLowerCase()] ?? {};
  const query: Record<string, JsonSchema> = {};
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in === 'query') query[parameter.name] = parameter.schema;
  }
  const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
  const params = [...url.matchAll(/:(\w+)|\*/g)].map((m) => m[1] ?? '*');
  return { method, url, query, body: bodySchema?.properties ?? null, params };
});
// The event stream stays open, which app.inject cannot end; server/events/events.test.ts sends its
// inputs malformed over real HTTP instead.
const fuzzed = routes.filter(
  (route) =>
    route.url !== EVENTS_PATH &&
    (route.body !== null || Object.keys(route.query).length > 0 || route.params.length > 0),
);

let addresses = 0;
/** A new source address per request, so per-address rate limits never stand in for an answer. */
const nextAddress = () => {
  addresses++;
  return `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;
};

/** A fresh member with an item and a want, so requests that delete or edit have something of theirs. */
async function freshMember() {
  const member = await createUser(t.app.db);
  const [item, want, cookies] = await Promise.all([
    createItem(t.app.db, { userId: member.id }),
    createWant(t.app.db, { userId: member.id }),
    sessionCookiesFor(t.app, member),
  ]);
  return { member, item, want, cookies };
}
type Member = Awaited<ReturnType<typeof freshMember>>;

/** A plausible value for a path parameter: the member's own want, item or id. */
function paramValue(route: Route, name: string, m: Member): string {
  if (name === 'id') {
    if (route.url.startsWith('/api/users/') || route.url.startsWith('/api/members/')) return m.member.id;
    if (route.url.startsWith('/api/wants/')) return String(m.want.id);
    return String(m.item.id);
  }
  const example = EXAMPLES[name]?.();
  return typeof example === 'string' ? example : 'fuzz';
}

interface Request {
  params: Record<string, string>;
  query: Record<string, string | string[]>;
  body: unknown;
}

function baseline(route: Route, m: Member): Request {
  const params = Object.fromEntries(route.params.map((name) => [name, paramValue(route, name, m)]));
  const query: Record<string, string> = {};
  for (const [name, schema] of Object.entries(route.query)) {
    // Optional parameters with a default are left out, as clients do.
    if (schema.default !== undefined) continue;
    query[name] = String(EXAMPLES[name]?.() ?? sampleOf(schema));
  }
  const body = route.body
    ? Object.fromEntries(
        Object.entries(route.body).map(([name, schema]) => [
          name,
          name in EXAMPLES ? EXAMPLES[name]?.() : sampleOf(schema),
        ]),
      )
    : undefined;
  return { params, query, body };
}

/**
 * Percent-encoded UTF-8 of every character but unreserved ones; a lone surrogate becomes the three
 * bytes a careless encoder writes for it (ED A0 80), which are not valid UTF-8.
 */
function percentEncode(text: string): string {
  let encoded = '';
  for (const char of text) {
    if (/^[A-Za-z0-9\-._~]$/.test(char)) {
      encoded += char;
      continue;
    }
    const code = char.codePointAt(0) ?? 0;
    const bytes =
      code >= 0xd800 && code <= 0xdfff
        ? [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63)]
        : [...Buffer.from(char, 'utf8')];
    encoded += bytes.map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return encoded;
}

/** Path parameter text sent as is, not encoded: broken and overlong percent-encodings. */
const RAW_PATH_TEXT: Record<string, string> = {
  'a lone percent sign': '%',
  'a broken escape': '%ZZ',
  'an overlong NUL': '%C0%80',
  'an encoded slash': '..%2F..%2Fetc',
};

function send(route: Route, request: Request, cookies: Record<string, string>) {
  const path = route.url.replace(/:(\w+)|\*/g, (_all, name: string | undefined) => {
    const value = request.params[name ?? '*'] ?? '';
    return Object.values(RAW_PATH_TEXT).includes(value) ? value : percentEncode(value);
  });
  const options: InjectOptions = {
    method: route.method as InjectOptions['method'],
    url: path,
    query: request.query,
    cookies,
    remoteAddress: nextAddress(),
  };
  if (request.body !== undefined) {
    options.payload = JSON.stringify(request.body);
    options.headers = { 'content-type': 'application/json' };
  }
  return t.app.inject(options);
}

const describeValue = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
};

describe('fuzzing every route with a body, query string or path parameters', () => {
  it('finds the routes (the route tree and the OpenAPI document agree)', () => {
    const found = new Set(routes.map((route) => `${route.method} ${openApiPath(route.url)}`));
    const documented = Object.entries(openApi.paths).flatMap(([path, operations]) =>
      Object.keys(operations)
        .filter((method) => method !== 'head')
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.length).toBeGreaterThan(20);
    expect(documented.filter((route) => !found.has(route))).toEqual([]);
    expect(fuzzed.map((route) => `${route.method} ${route.url}`)).toEqual(
      expect.arrayContaining(['POST /api/items', 'PATCH /api/items/:id', 'GET /api/feed/:feedName']),
    );
  });

  it.each(fuzzed.map((route) => [`${route.method} ${route.url}`, route] as const))(
    '%s never answers 5xx',
    async (_name, route) => {
      const failures: string[] = [];
      const check = (what: string, response: LightMyRequestResponse) => {
        if (response.statusCode >= 500) failures.push(`${what}: ${response.statusCode} ${response.body}`);
      };

      const fields: Array<{ where: 'params' | 'query' | 'body'; name: string }> = [
        ...route.params.map((name) => ({ where: 'params' as const, name })),
        ...Object.keys(route.query).map((name) => ({ where: 'query' as const, name })),
        ...Object.keys(route.body ?? {}).map((name) => ({ where: 'body' as const, name })),
      ];
      for (const { where, name } of fields) {
        // A fresh member per field: edits and deletions of one field's values do not hide the next's.
        const m = await freshMember();
        const values: Array<[string, unknown]> = [
          ...Object.entries(HOSTILE_TEXT),
          ...(where === 'body' ? Object.entries(WRONG_TYPES) : []),
          ...(where === 'query' ? [['repeated', ['1', '2']] as [string, unknown]] : []),
          ...(where === 'params' ? Object.entries(RAW_PATH_TEXT) : []),
        ];
        for (const [label, value] of values) {
          const request = baseline(route, m);
          if (where === 'body') request.body = { ...(request.body as object), [name]: value };
          else if (where === 'query') request.query[name] = value as string | string[];
          else request.params[name] = value as string;
          check(
            `${where} ${name} = ${label} (${describeValue(value)})`,
            await send(route, request, m.cookies),
          );
        }
      }
      if (route.body) {
        const m = await freshMember();
        for (const [label, body] of Object.entries(WRONG_BODIES)) {
          check(`body = ${label}`, await send(route, { ...baseline(route, m), body }, m.cookies));
        }
      }
      expect(failures).toEqual([]);
    },
  );
});

describe('NUL bytes the outside probe sent (issue 12)', () => {
  const refusal = async (response: LightMyRequestResponse, text: string) => {
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: ERROR_CODES.validation, message: expect.stringContaining(text) });
  };
  const item = { title: 'Drill', description: 'Works well.', category: 'tools' };
  const want = { title: 'Ladder', description: 'Tall.', category: 'tools' };

  it('item and want titles and descriptions, new and edited, answer 400 and store nothing', async () => {
    const m = await freshMember();
    const call = (method: 'POST' | 'PATCH', url: string, payload: object) =>
      t.app.inject({ method, url, payload, cookies: m.cookies });
    await refusal(
      await call('POST', '/api/items', { ...item, title: 'Dr\u0000ill' }),
      'Title contains characters that are not allowed',
    );
    await refusal(
      await call('POST', '/api/items', { ...item, description: 'Works\u0000' }),
      'Description contains characters that are not allowed',
    );
    await refusal(
      await call('POST', '/api/wants', { ...want, title: '\u0000' }),
      'Title contains characters that are not allowed',
    );
    await refusal(
      await call('POST', '/api/wants', { ...want, description: 'Tall\u0000' }),
      'Description contains characters that are not allowed',
    );
    await refusal(
      await call('PATCH', `/api/items/${m.item.id}`, { title: 'a\u0000b' }),
      'Title contains characters that are not allowed',
    );
    await refusal(
      await call('PATCH', `/api/items/${m.item.id}`, { description: 'a\u0000b' }),
      'Description contains characters that are not allowed',
    );
    await refusal(
      await call('PATCH', `/api/wants/${m.want.id}`, { title: 'a\u0000b' }),
      'Title contains characters that are not allowed',
    );

    // A data URL's payload is left to the strict photo decoder, which refuses it.
    const photo = await call('POST', '/api/items', { ...item, imageUrl: 'data:image/png;base64,AA\u0000A' });
    expect(photo.statusCode).toBe(400);
    expect(photo.json()).toMatchObject({ code: PHOTO_ERROR_CODES.invalid });

    const stored = await t.app.db
      .select({ title: items.title })
      .from(items)
      .where(eq(items.userId, m.member.id));
    expect(stored.map((row) => row.title)).toEqual([m.item.title]);
  });

  it('the demo name and register names answer 400', async () => {
    await refusal(
      await t.app.inject({ method: 'POST', url: '/api/demo-login', payload: { name: 'Vic\u0000tor' } }),
      'Name contains characters that are not allowed',
    );
    const register = (change: object) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/register',
        payload: {
          firstName: 'Ada',
          lastName: 'L',
          email: EXAMPLES.email?.(),
          password: 'Qv7-barter-fuzz-91',
          ...change,
        },
      });
    await refusal(
      await register({ firstName: 'A\u0000da' }),
      'First name contains characters that are not allowed',
    );
    await refusal(
      await register({ lastName: 'L\u0000' }),
      'Last name contains characters that are not allowed',
    );
  });

  it.each(FEED_NAMES)('GET /api/feed/%s with a NUL in q answers 400', async (feed) => {
    const m = await freshMember();
    await refusal(
      await t.app.inject({ method: 'GET', url: `/api/feed/${feed}?q=%00`, cookies: m.cookies }),
      'Search text contains characters that are not allowed',
    );
  });
});
