/**
 * What the worker pool runs (ADR 048): pure, CPU-bound functions of plain data, each named by a
 * task. This module is loaded in the pool's threads only; the main thread reaches it through
 * `runInPool` (`pool.ts`), which gives the input and answer types below.
 */

import os from 'node:os';
import { workerData } from 'node:worker_threads';
import type { Messages } from '@lingui/core';
import type { Locale } from '#common/locales.ts';
// Types only at the top: each task imports its module when a thread first runs it, so a thread
// holds only what it ran (tsx, HiGHS, ZXing and the place data each cost tens of megabytes).
import type { GreyImage, RetailBarcode } from '../features/analyze/retail-barcode';
import type { PasswordOwner, PasswordVerdict } from '../features/auth/password-strength';
import type { CircleEdge, FoundCircle } from '../features/circles/circle-finder';
import type { TradeGraph, TradeSolution } from '../features/circles/engine/graph';
import type { SolveOptions } from '../features/circles/engine/solver';
import type { NeighbourhoodOutline } from '../features/places/neighbourhood-outlines';
import type { PlaceData, PlaceParts } from '../features/places/offline-geocoder';
import type { PoolThreadData } from './pool';
import { lowerThisWorkerThread } from './thread-priority';

// CPU-heavy work yields the CPU to the threads that answer members (ADR 098), unless the pool is
// for work a member's request waits on (ADR 127).
if ((workerData as PoolThreadData | undefined)?.lowered !== false) lowerThisWorkerThread();

export interface FindCirclesInput {
  edges: CircleEdge[];
  /** The members every circle must pass through. */
  through: string[];
  /** `a|b` for every pair of members where one blocked the other (both orders). */
  hidden: string[];
}

export interface FindCirclesResult {
  /** Circles found before the hidden and unfair ones were dropped. */
  found: number;
  chosen: FoundCircle[];
}

/** The circle finder's pure part (ADR 029): graph, every circle through `through`, the best set. */
export async function findCircles(input: FindCirclesInput): Promise<FindCirclesResult> {
  const { chooseCircles, enumerateCircles, memberGraph } = await import('../features/circles/circle-finder');
  const found = enumerateCircles(memberGraph(input.edges), { through: new Set(input.through) });
  const hidden = new Set(input.hidden);
  const visible = found.filter(
    (circle) => !circle.steps.some((a) => circle.steps.some((b) => hidden.has(`${a.giverId}|${b.giverId}`))),
  );
  return { found: found.length, chosen: await chooseCircles(visible) };
}

/** Every task by name, with its input and answer. */
export const poolTasks = {
  solveTrades: async (input: { graph: TradeGraph; options: SolveOptions }): Promise<TradeSolution> => {
    const { solveTrades } = await import('../features/circles/engine/solver');
    return solveTrades(input.graph, input.options);
  },
  findCircles,
  /** A retail barcode in the greyscale image (its pixels arrive as a Uint8Array: ZXing reads either). */
  readBarcode: async (image: GreyImage): Promise<RetailBarcode | null> => {
    const { decodeRetailBarcode } = await import('../features/analyze/barcode');
    return decodeRetailBarcode(image);
  },
  /** Why a new password may not be used, or null (zxcvbn's dictionaries load in the thread, ADR 093). */
  judgePassword: async (input: {
    password: string;
    owner: PasswordOwner;
  }): Promise<PasswordVerdict | null> => {
    const { judgePasswordHere } = await import('../features/auth/password-strength');
    return judgePasswordHere(input.password, input.owner);
  },
  /** An argon2id hash of a password (the password pool's threads, ADR 120). */
  hashPassword: async (input: { password: string }): Promise<string> => {
    const { hashHere } = await import('../features/auth/argon2-here');
    return hashHere(input.password);
  },
  /** Whether a password matches its stored argon2 hash (the password pool's threads, ADR 120). */
  verifyPassword: async (input: { stored: string; password: string }): Promise<boolean> => {
    const { verifyHere } = await import('../features/auth/argon2-here');
    return verifyHere(input.stored, input.password);
  },
  /** The offline geocoder's indexes and k-d trees (their buffers move to the main thread). */
  buildPlaceData: async (parts: PlaceParts): Promise<PlaceData> => {
    const { buildPlaceData, placeDataTransfers } = await import('../features/places/offline-geocoder');
    const { move, transferableSymbol, valueSymbol } = await import('piscina');
    const data = buildPlaceData(parts);
    // Piscina's Transferable: what to move, and the value to send (its keys are piscina's symbols,
    // which TypeScript widens to `symbol` here).
    const transferable = {
      get [transferableSymbol]() {
        return placeDataTransfers(data);
      },
      get [valueSymbol]() {
        return data;
      },
    } as unknown as Parameters<typeof move>[0];
    const moved = move(transferable);
    // Piscina unwraps it on the way: the main thread receives the PlaceData itself.
    return moved as unknown as PlaceData;
  },
  /** The neighbourhood outlines of the map's own base (ADR 086), thinned. */
  buildNeighbourhoodOutlines: async (): Promise<NeighbourhoodOutline[]> => {
    const { buildNeighbourhoodOutlines } = await import('../features/places/neighbourhood-outlines');
    return buildNeighbourhoodOutlines();
  },
  /** The e-mail catalogues, parsed and compiled (ADR 101: off the main thread). */
  readMailCatalogues: async (_input: Record<string, never>): Promise<Record<Locale, Messages>> => {
    const { readMailCatalogues } = await import('../mail/mail-i18n');
    return readMailCatalogues();
  },
  /** How long the pool's own machinery takes (tests, benchmarks): the input, back. */
  echo: <T>(input: T): T => input,
  /** The thread's own scheduling priority (its nice value on Linux): whether it was lowered. */
  niceness: (_input: Record<string, never>): number => os.getPriority(0),
};

export type PoolTasks = typeof poolTasks;
export type PoolTaskName = keyof PoolTasks;

export interface PoolMessage {
  task: string;
  input: unknown;
}

/** Piscina's entry point: one message, one task. */
export default function runTask(message: PoolMessage): unknown {
  const run = (poolTasks as Record<string, ((input: unknown) => unknown) | undefined>)[message.task];
  if (!run) throw new Error(`the worker pool has no task "${message.task}"`);
  return run(message.input);
}
