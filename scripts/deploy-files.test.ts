/**
 * The deploy files (Dockerfile, .dockerignore, compose.yaml, deploy/Caddyfile, deploy/env.example;
 * docs/deploy.md) checked against the code they deploy, since no Docker daemon runs here: the
 * image's final stage, the files the server loads at run time, the compose services and every
 * setting they pass (each must be one server/config.ts reads), and the proxy's upstreams.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// `yaml` comes with @fastify/swagger and vite (both dependencies).
import { parse as parseYaml } from 'yaml';
import { loadConfig, SETTING_NAMES } from '#server/config.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** Variables the server's process uses without server/config.ts (docs/settings.md says so). */
const PROCESS_SETTINGS = new Set(['MALLOC_ARENA_MAX']);

// ----------------------------------------------------------------------------------------------
// Dockerfile

interface Instruction {
  keyword: string;
  args: string;
}

/** Instructions of a Dockerfile, continuation lines joined, comments dropped, grouped by stage. */
function dockerStages(text: string): { from: string; name: string | null; body: Instruction[] }[] {
  const lines = text.replace(/\\\n/g, ' ').split('\n');
  const stages: { from: string; name: string | null; body: Instruction[] }[] = [];
  for (const raw of lines) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const match = /^(\w+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const keyword = (match[1] as string).toUpperCase();
    const args = (match[2] as string).trim();
    if (keyword === 'FROM') {
      const [from, as, name] = args.split(/\s+/);
      stages.push({
        from: from as string,
        name: as?.toUpperCase() === 'AS' ? (name ?? null) : null,
        body: [],
      });
    } else if (stages.length > 0) {
      stages.at(-1)?.body.push({ keyword, args });
    }
  }
  return stages;
}

/** `ENV A=1 B=2` (or `ENV A 1`) as an object. */
function envOf(instructions: Instruction[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { keyword, args } of instructions) {
    if (keyword !== 'ENV') continue;
    if (!args.includes('=')) {
      const [name, ...value] = args.split(/\s+/);
      env[name as string] = value.join(' ');
      continue;
    }
    for (const pair of args.match(/\S+=("[^"]*"|\S*)/g) ?? []) {
      const at = pair.indexOf('=');
      env[pair.slice(0, at)] = pair.slice(at + 1).replace(/^"|"$/g, '');
    }
  }
  return env;
}

const dockerfile = read('Dockerfile');
const stages = dockerStages(dockerfile);
const buildStage = stages[0];
const finalStage = stages.at(-1);
const imageEnv = envOf(finalStage?.body ?? []);
const packageJson = JSON.parse(read('package.json')) as {
  engines?: { node?: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  scripts: Record<string, string>;
  allowScripts?: Record<string, unknown> | string[];
  imports: Record<string, string>;
};

/** The repository paths the final stage copies from the build stage (its sources, not built ones). */
function runtimeCopies(): string[] {
  const copies: string[] = [];
  for (const { keyword, args } of finalStage?.body ?? []) {
    if (keyword !== 'COPY') continue;
    const parts = args.split(/\s+/).filter((part) => !part.startsWith('--'));
    for (const source of parts.slice(0, -1)) copies.push(source.replace(/^\/app\//, ''));
  }
  return copies;
}

// ----------------------------------------------------------------------------------------------
// .dockerignore

function ignorePatterns(): RegExp[] {
  return read('.dockerignore')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#') && !line.startsWith('!'))
    .map((pattern) => {
      const source = pattern
        .replace(/^\/+/, '')
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*\*\//g, '<any-dirs>')
        .replace(/\*/g, '[^/]*')
        .replace(/\?/g, '[^/]')
        .replace(/<any-dirs>/g, '(?:.*/)?');
      // A pattern names a file or a directory (and so everything under it).
      return new RegExp(`^${source}(?:/.*)?$`);
    });
}
const ignored = ignorePatterns();
const isIgnored = (file: string) => ignored.some((pattern) => pattern.test(file));

// ----------------------------------------------------------------------------------------------
// What a module loads: its local files (followed) and its packages.

const IMPORT_PATTERNS = [
  /^\s*import\s+(?!type\b)[^'";]*?\bfrom\s+['"]([^'"]+)['"]/gm,
  /^\s*import\s+['"]([^'"]+)['"]/gm,
  /^\s*export\s+(?!type\b)[^'";]*?\bfrom\s+['"]([^'"]+)['"]/gm,
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  /new URL\(\s*['"](\.[^'"]+)['"]\s*,\s*import\.meta\.url/g,
  /\btsImport\(\s*['"]([^'"]+)['"]/g,
  /\brequire(?:\.resolve)?\(\s*['"]([^'"]+)['"]/g,
];

function resolveLocal(from: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')];
  if (base.endsWith('.js')) candidates.push(base.replace(/\.js$/, '.ts'));
  return candidates.find((file) => existsSync(file) && statSync(file).isFile()) ?? null;
}

/** A package.json "imports" alias (`#server/config.ts`) as the repository file it names. */
function resolveAlias(specifier: string): string | null {
  for (const [alias, target] of Object.entries(packageJson.imports)) {
    const prefix = alias.replace(/\*$/, '');
    if (specifier.startsWith(prefix)) {
      return resolveLocal(
        path.join(ROOT, 'package.json'),
        target.replace(/\*$/, '') + specifier.slice(prefix.length),
      );
    }
  }
  return null;
}

const packageName = (specifier: string) =>
  specifier.startsWith('@')
    ? specifier.split('/').slice(0, 2).join('/')
    : (specifier.split('/')[0] as string);

/** Every local file reachable from `entries` and every package they import, by repository path. */
function loadedBy(entries: string[]): {
  files: Set<string>;
  packages: Set<string>;
  unresolved: string[];
} {
  const files = new Set<string>();
  const packages = new Set<string>();
  const unresolved: string[] = [];
  const queue = entries.map((entry) => path.join(ROOT, entry));
  while (queue.length > 0) {
    const file = queue.pop() as string;
    const relative = path.relative(ROOT, file);
    if (files.has(relative)) continue;
    files.add(relative);
    if (!/\.(ts|tsx|mjs|js)$/.test(file)) continue;
    const text = readFileSync(file, 'utf8');
    for (const pattern of IMPORT_PATTERNS) {
      for (const match of text.matchAll(pattern)) {
        const specifier = match[1] as string;
        if (specifier.startsWith('.') || specifier.startsWith('#')) {
          const target = specifier.startsWith('#') ? resolveAlias(specifier) : resolveLocal(file, specifier);
          if (target) queue.push(target);
          else unresolved.push(`${relative}: ${specifier}`);
        } else if (!specifier.startsWith('node:') && !builtinModules.includes(specifier)) {
          packages.add(packageName(specifier));
        }
      }
    }
  }
  return { files, packages, unresolved };
}

// ----------------------------------------------------------------------------------------------
// compose.yaml and its interpolation

interface ComposeService {
  image?: string;
  build?: unknown;
  environment?: Record<string, string | number | boolean | null>;
  volumes?: string[];
  depends_on?: Record<string, { condition?: string }>;
  healthcheck?: { test?: string | string[] };
  ports?: string[];
}
// Merge keys (`<<: *app`) as compose reads them.
const compose = parseYaml(read('compose.yaml'), { merge: true }) as {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
};
const services = compose.services;
const appNames = Object.keys(services).filter((name) => services[name]?.build !== undefined);

/**
 * Compose's interpolation of one value: ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error} and
 * ${VAR?error} (the error thrown when it applies).
 */
function interpolate(value: string, variables: Record<string, string | undefined>): string {
  return value.replace(
    /\$\{([A-Z0-9_]+)(?:(:?)([-?])([^}]*))?\}/g,
    (_all, name: string, colon, kind, word) => {
      const current = variables[name];
      const missing = current === undefined || (colon === ':' && current === '');
      if (kind === '?' && missing) throw new Error(`${name}: ${word}`);
      if (kind === '-' && missing) return word;
      return current ?? '';
    },
  );
}

/** The `${VAR...}` forms a value uses: name and operator ("", ":-", "-", ":?", "?"). */
function variablesIn(value: string): { name: string; operator: string }[] {
  return [...value.matchAll(/\$\{([A-Z0-9_]+)(:?[-?])?/g)].map((match) => ({
    name: match[1] as string,
    operator: match[2] ?? '',
  }));
}

/** deploy/env.example as compose reads a .env file. */
function exampleEnv(): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const line of read('deploy/env.example').split('\n')) {
    const match = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (match) variables[match[1] as string] = match[2] as string;
  }
  return variables;
}

/** An app service's environment as its container gets it: the image's ENV, then compose's, interpolated. */
function containerEnv(service: ComposeService, variables: Record<string, string | undefined>) {
  const env: Record<string, string> = { ...imageEnv };
  for (const [name, value] of Object.entries(service.environment ?? {})) {
    env[name] = interpolate(String(value ?? ''), variables);
  }
  return env;
}

// ----------------------------------------------------------------------------------------------

describe('Dockerfile', () => {
  it('builds on Node 20 slim in two or more stages, the last one the runtime', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const image = dockerfile.match(/^ARG NODE_IMAGE=(\S+)/m)?.[1];
    for (const stage of stages)
      expect(stage.from.replace('$' + '{NODE_IMAGE}', image ?? '')).toBe('node:20-bookworm-slim');
    expect(packageJson.engines?.node).toBe('^20.19.0 || >=22.12.0');
    expect(buildStage?.name).toBe('build');
  });

  it('installs exactly what the lock file says, running no install script, as the project npm does', () => {
    const runs = (buildStage?.body ?? []).filter((i) => i.keyword === 'RUN').map((i) => i.args);
    expect(runs.some((run) => /npm ci\b.*--ignore-scripts/.test(run))).toBe(true);
    expect(runs.some((run) => /npm install\b/.test(run))).toBe(false);
    // npm 11 runs only the dependency scripts allowScripts approves. Approving one means the image
    // must run it too: drop --ignore-scripts (and install npm 11 in the image) before adding one.
    const approved = packageJson.allowScripts ?? {};
    expect(Array.isArray(approved) ? approved : Object.keys(approved)).toEqual([]);
    expect(runs.some((run) => /npx vite build|npm run build/.test(run))).toBe(true);
    expect(runs.some((run) => /npm prune --omit=dev/.test(run))).toBe(true);
  });

  it('runs the server compiled to JavaScript at build time, not through a TypeScript loader (ADR 071)', () => {
    const cmd = finalStage?.body.filter((i) => i.keyword === 'CMD').at(-1)?.args ?? '';
    expect(JSON.parse(cmd)).toEqual(['node', 'dist/node/main.mjs']);
    expect(packageJson.scripts.build).toContain('scripts/build-server.ts');
    expect(runtimeCopies()).toContain('dist/node');
  });

  it('runs as a user other than root, with production settings, a data volume, a port and a stop signal', () => {
    const body = finalStage?.body ?? [];
    const users = body.filter((i) => i.keyword === 'USER').map((i) => i.args);
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);
    expect(imageEnv.NODE_ENV).toBe('production');
    expect(imageEnv.DATA_DIR).toMatch(/^\//);
    const volumes = body.filter((i) => i.keyword === 'VOLUME').map((i) => i.args);
    expect(volumes.join(' ')).toContain(`"${imageEnv.DATA_DIR}"`);
    expect(
      body.some(
        (i) => i.keyword === 'RUN' && new RegExp(`chown (-R )?node:node ${imageEnv.DATA_DIR}$`).test(i.args),
      ),
    ).toBe(true);
    const exposed = body.filter((i) => i.keyword === 'EXPOSE').map((i) => i.args);
    expect(exposed).toEqual([imageEnv.PORT]);
    expect(body.find((i) => i.keyword === 'STOPSIGNAL')?.args).toBe('SIGTERM');
    // No build tools in the runtime stage.
    expect(body.some((i) => /npm (ci|install)|vite build|build-essential/.test(i.args))).toBe(false);
  });

  it('checks /healthz with node (no curl in slim images)', () => {
    const check = finalStage?.body.find((i) => i.keyword === 'HEALTHCHECK')?.args ?? '';
    expect(check).toMatch(/CMD \["node", "-e", /);
    expect(check).toContain('/healthz');
    expect(check).toContain('process.env.PORT');
    expect(check).not.toMatch(/curl|wget/);
    expect(read('server/features/health/health-routes.ts')).toContain("'/healthz'");
  });

  it('sets only settings the server or its process reads, each documented', () => {
    const settingsDoc = read('docs/settings.md');
    for (const name of Object.keys(imageEnv)) {
      expect(SETTING_NAMES.includes(name) || PROCESS_SETTINGS.has(name), name).toBe(true);
      expect(settingsDoc, name).toContain(`\`${name}\``);
    }
  });

  it('copies every file the server and `npm run admin` load, and only dependencies they need', () => {
    const copies = runtimeCopies();
    const inImage = (file: string) => copies.some((copy) => file === copy || file.startsWith(`${copy}/`));
    // The compiled programs (dist/node) hold the server's code; `npm run admin` starts them through
    // scripts/run.mjs. What they read at run time: migrations, e-mail catalogues, the web builds.
    expect(packageJson.scripts.admin).toBe('node scripts/run.mjs admin');
    const launcher = loadedBy(['scripts/run.mjs']);
    expect(launcher.unresolved).toEqual([]);
    const runtimeFiles = [
      ...launcher.files,
      'dist/node',
      'dist/web',
      'dist/server',
      'drizzle',
      'web/locales',
    ];
    expect(runtimeFiles.filter((file) => !inImage(file))).toEqual([]);
    const { packages, unresolved } = loadedBy(['server/main.ts', 'scripts/admin.ts']);
    expect(unresolved).toEqual([]);
    expect(packages.size).toBeGreaterThan(10);
    const notDependencies = [...packages].filter((name) => !(name in packageJson.dependencies));
    expect(notDependencies).toEqual([]);
  });

  it('has a build context with what the web build needs and nothing of the machine', () => {
    for (const entry of [
      'node_modules',
      'dist',
      'data',
      '.data-pg',
      '.git',
      '.scratch',
      'test-results',
      '.env',
    ]) {
      expect(isIgnored(entry), entry).toBe(true);
    }
    const { files, unresolved } = loadedBy(['vite.config.ts']);
    expect(unresolved).toEqual([]);
    const needed = [...files, 'web/index.html', 'web/locales/es.po', 'package-lock.json'];
    expect(needed.filter((file) => isIgnored(file))).toEqual([]);
    expect(isIgnored('server/main.ts')).toBe(false);
    expect(isIgnored('server/config.test.ts')).toBe(true);
    expect(read('.gitignore').split('\n')).toContain('.env');
  });
});

describe('compose.yaml', () => {
  const variables = exampleEnv();

  it('runs PostgreSQL 15 with a volume and a pg_isready health check', () => {
    const postgres = services.postgres;
    expect(postgres?.image).toMatch(/^postgres:15(\b|-)/);
    const test = [postgres?.healthcheck?.test ?? []].flat().join(' ');
    expect(test).toMatch(/pg_isready/);
    const volume = postgres?.volumes?.find((v) => v.endsWith(':/var/lib/postgresql/data'));
    expect(volume).toBeDefined();
    expect(compose.volumes).toHaveProperty(volume?.split(':')[0] as string);
  });

  it('runs two app processes from one image, with the same settings and the same data volume', () => {
    expect(appNames).toHaveLength(2);
    const [first, second] = appNames.map((name) => services[name] as ComposeService);
    expect(first?.image).toBeTruthy();
    expect(second?.image).toBe(first?.image);
    expect(second?.build).toEqual(first?.build);
    expect(second?.environment).toEqual(first?.environment);
    expect(second?.volumes).toEqual(first?.volumes);
    expect(second?.ports ?? []).toEqual([]);
    const dataVolume = first?.volumes?.find((v) => v.split(':')[1] === imageEnv.DATA_DIR);
    expect(dataVolume, 'the photo volume is mounted at DATA_DIR').toBeDefined();
    expect(compose.volumes).toHaveProperty(dataVolume?.split(':')[0] as string);
    for (const app of [first, second]) expect(app?.depends_on?.postgres?.condition).toBe('service_healthy');
    // The second starts after the first answers (pg-boss's queue set-up, compose.yaml).
    expect(second?.depends_on?.[appNames[0] as string]?.condition).toBe('service_healthy');
  });

  it('passes only settings the server reads, each documented', () => {
    const settingsDoc = read('docs/settings.md');
    const names = Object.keys(services[appNames[0] as string]?.environment ?? {});
    expect(names.length).toBeGreaterThan(5);
    for (const name of names) {
      expect(SETTING_NAMES.includes(name) || PROCESS_SETTINGS.has(name), name).toBe(true);
      expect(settingsDoc, name).toContain(`\`${name}\``);
    }
  });

  it('requires the secrets and the address from .env, allowing an empty SITE_PASSWORD', () => {
    const environment = services[appNames[0] as string]?.environment ?? {};
    const operators = new Map(
      Object.values(environment).flatMap((value) =>
        variablesIn(String(value)).map(({ name, operator }) => [name, operator] as const),
      ),
    );
    expect(operators.get('SESSION_SECRET')).toBe(':?');
    expect(operators.get('PUBLIC_URL')).toBe(':?');
    expect(operators.get('POSTGRES_PASSWORD')).toBe(':?');
    expect(operators.get('SITE_PASSWORD')).toBe('?');
    const withoutSecret = { ...variables, SESSION_SECRET: '' };
    expect(() => containerEnv(services[appNames[0] as string] as ComposeService, withoutSecret)).toThrow(
      /SESSION_SECRET/,
    );
    expect(
      containerEnv(services[appNames[0] as string] as ComposeService, { ...variables, SITE_PASSWORD: '' })
        .SITE_PASSWORD,
    ).toBe('');
  });

  it('gives settings the server accepts in production, on the postgres service, from deploy/env.example', () => {
    const env = containerEnv(services[appNames[0] as string] as ComposeService, variables);
    const config = loadConfig(env);
    expect(config.env).toBe('production');
    expect(config.dataDir).toBe(imageEnv.DATA_DIR);
    expect(config.seedDemo).toBe(false);
    expect(config.demoLogin).toBe(false);
    expect(config.publicUrl).toBe(variables.PUBLIC_URL);
    const database = new URL(config.databaseUrl as string);
    const postgres = services.postgres?.environment ?? {};
    expect(database.hostname).toBe('postgres');
    expect(database.username).toBe(postgres.POSTGRES_USER);
    expect(database.pathname).toBe(`/${postgres.POSTGRES_DB}`);
    expect(decodeURIComponent(database.password)).toBe(variables.POSTGRES_PASSWORD);
  });

  it('puts Caddy in front of both processes, on their health checks, unbuffered', () => {
    const caddy = services.caddy;
    expect(caddy?.image).toMatch(/^caddy:2/);
    for (const name of appNames) expect(caddy?.depends_on?.[name]?.condition).toBe('service_healthy');
    expect(caddy?.ports).toEqual(expect.arrayContaining(['80:80', '443:443']));
    const mount = caddy?.volumes?.find((v) => v.endsWith(':/etc/caddy/Caddyfile:ro'));
    const caddyfile = read(path.normalize(mount?.split(':')[0] as string));

    const proxy = /^\s*reverse_proxy\s+([^{\n]+)\{([\s\S]*?)^\s*\}/m.exec(caddyfile);
    expect(proxy).not.toBeNull();
    const upstreams = String(proxy?.[1]).trim().split(/\s+/);
    expect(upstreams.sort()).toEqual(appNames.map((name) => `${name}:${imageEnv.PORT}`).sort());
    const options = proxy?.[2] as string;
    expect(options).toMatch(/^\s*health_uri \/healthz$/m);
    expect(options).toMatch(/^\s*flush_interval -1$/m);
    // Compression would hold event-stream frames; the server precompresses its assets itself.
    expect(caddyfile).not.toMatch(/^\s*encode\b/m);
    expect(caddyfile).toMatch(/^\{\$SITE_ADDRESS(:[^}]*)?\}/m);
    expect(Object.keys(caddy?.environment ?? {})).toContain('SITE_ADDRESS');
  });
});

describe('docs', () => {
  it('link the deploy and scaling pages from the README and the architecture page', () => {
    for (const page of ['README.md', 'docs/architecture.md']) {
      const text = read(page);
      expect(text, page).toMatch(/\]\((docs\/)?deploy\.md\)/);
      expect(text, page).toMatch(/\]\((docs\/)?scaling\.md\)/);
    }
    for (const page of ['docs/deploy.md', 'docs/scaling.md']) {
      expect(existsSync(path.join(ROOT, page)), page).toBe(true);
      expect(read(page)).toContain('](performance.md)');
    }
    expect(read('docs/deploy.md')).toContain('](backups.md)');
  });
});
