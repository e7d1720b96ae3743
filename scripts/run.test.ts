/**
 * Stopping `npm start` stops everything it started (issue 32, ADR 071): the real `npm start` (which
 * builds what is stale, then runs the compiled server) on a free port and an empty data directory,
 * stopped with SIGTERM, with SIGINT (Ctrl-C) and by killing npm outright; afterwards no process it
 * started is left.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from './bench-server';

const ROOT = path.resolve(import.meta.dirname, '..');
/** A start may build the web app and the server first (ADR 053) on a busy machine. */
const START_LIMIT_MS = 240_000;

interface Started {
  npm: ChildProcess;
  /** The server's process id, from its first log line. */
  serverPid: number;
  /** Resolves when every process holding npm's output has ended (npm and what it started). */
  outputClosed: Promise<void>;
}

let dataDir: string | undefined;
afterEach(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

/** `npm start` in its own process group, resolved once the server says it is running. */
async function npmStart(): Promise<Started> {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'bh-npm-start-'));
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(await freePort()), DATA_DIR: dataDir };
  // As a member runs it: no test or production settings; an empty database stays empty (faster).
  delete env.NODE_ENV;
  delete env.VITEST;
  env.SEED_DEMO = 'false';
  const npm = spawn('npm', ['start'], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const outputClosed = new Promise<void>((resolve) => npm.stdout?.once('close', resolve));
  let output = '';
  let serverPid = 0;
  npm.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  await new Promise<void>((resolve, reject) => {
    npm.once('exit', (code) =>
      reject(new Error(`npm start exited (${code}) before the server ran:\n${output}`)),
    );
    npm.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      serverPid ||= Number(/"pid":(\d+)/.exec(output)?.[1] ?? 0);
      if (serverPid && output.includes('Barterhood is running at')) resolve();
    });
  });
  return { npm, serverPid, outputClosed };
}

/** The processes alive now (zombies, ended but not yet reaped, count as ended), with their process groups. */
function livingProcesses(): Array<{ pid: number; group: number }> {
  const living: Array<{ pid: number; group: number }> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    // "pid (command) state ppid pgrp ...": the command may hold spaces and parentheses.
    const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (state !== 'Z') living.push({ pid: Number(entry), group: Number(group) });
  }
  return living;
}

/** What is left of a start: the server if it still runs, and any process in npm's group. */
function leftOf(npm: ChildProcess, serverPid: number): number[] {
  return livingProcesses()
    .filter(({ pid, group }) => pid === serverPid || group === npm.pid)
    .map(({ pid }) => pid);
}

describe('npm start stops with everything it started', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s to npm: npm and the server exit, nothing is left',
    async (signal) => {
      const { npm, serverPid, outputClosed } = await npmStart();
      expect(leftOf(npm, serverPid)).toContain(serverPid);
      const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
      npm.kill(signal);
      await exited;
      await outputClosed;
      expect(leftOf(npm, serverPid)).toEqual([]);
    },
    START_LIMIT_MS,
  );

  it(
    'npm killed outright (SIGKILL): the server notices its parent is gone and stops',
    async () => {
      const { npm, serverPid, outputClosed } = await npmStart();
      npm.kill('SIGKILL');
      // The server held npm's output: it closes when the server has ended.
      await outputClosed;
      expect(leftOf(npm, serverPid)).toEqual([]);
    },
    START_LIMIT_MS,
  );
});
