/**
 * One Node version, held (issue 32, ADR 071): the Node running the tests is one package.json's
 * `engines.node` accepts, and every installed package accepts that range too, but for the few listed
 * below, each checked to run on Node 20 here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const packageJson = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
};
const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
};

/**
 * Packages whose `engines.node` leaves out Node 20 although they run on it, by name@version: a new
 * version of one must be checked again.
 */
const RUN_ON_20: Record<string, string> = {
  // Under @fastify/cookie and fastify's light-my-request: the cookie tests pass on Node 20.20.
  'cookie@2.0.2': 'sign-in, session and CSRF cookies: the auth and session tests pass on Node 20',
  // Under @fastify/static: Content-Disposition of downloads; the static-file tests pass on Node 20.
  'content-disposition@3.0.0': 'the web and static-file tests pass on Node 20',
  // The web build's Babel step (Lingui macros) under @vitejs/plugin-react: every build here runs on 20.
  '@rolldown/plugin-babel@0.2.4': 'vite build runs on Node 20',
  // Its engines field names one exact version ("22.13.0"); the screening tests pass on Node 20.
  'nsfwjs@4.4.0': 'the photo-screening tests pass on Node 20',
};

describe('the Node version', () => {
  it("the running Node is one package.json's engines accept", () => {
    expect(semver.satisfies(process.version, packageJson.engines.node), process.version).toBe(true);
  });

  it('every installed package accepts the lowest Node the project accepts, or is known to run on it', () => {
    const lowest = semver.minVersion(packageJson.engines.node)?.version ?? '';
    const refusing: string[] = [];
    for (const [location, entry] of Object.entries(lock.packages)) {
      const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (!location || !range || semver.satisfies(lowest, range)) continue;
      const name = location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length);
      if (!RUN_ON_20[`${name}@${entry.version}`]) refusing.push(`${name}@${entry.version} (${range})`);
    }
    expect(refusing).toEqual([]);
  });
});
