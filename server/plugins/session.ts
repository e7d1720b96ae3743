import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { UserRow } from '../db/schema/users';
import { periodicJob } from '../jobs/jobs-plugin';
import { cookieName, cookieOptions } from './security';
import { registerSessionCache, SessionCache } from './session-cache';
import {
  deleteSession,
  findSessionWithUser,
  insertSession,
  purgeExpiredSessions,
  touchSession,
} from './session-store';

/** The session cookie's name over http; `__Host-bh_session` when PUBLIC_URL is https (see cookieName). */
export const SESSION_COOKIE = 'bh_session';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A session ends after this long without use... */
export const SESSION_IDLE_MS = 14 * DAY_MS;
/** ...and at the latest this long after sign-in, however active. */
export const SESSION_ABSOLUTE_MS = 60 * DAY_MS;
/** The idle expiry moves forward at most once per this period, so reads do not write on every request. */
export const SESSION_TOUCH_AFTER_MS = DAY_MS;
const PURGE_INTERVAL_SECONDS = 60 * 60;

/** What routes use to change who is signed in. */
export interface SessionHandle {
  /**
   * Start a session for the member: always a fresh random id (the one the browser sent, if any, is
   * destroyed, so an id planted before sign-in is worthless), stored in an httpOnly cookie.
   */
  signIn(userId: string): Promise<void>;
  /** Destroy the session and clear the cookie; fine when nobody is signed in. */
  signOut(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in member, or null. Loaded by the session plugin's scope (behind the gate). */
    user: UserRow | null;
    session: SessionHandle;
  }
}

/**
 * Browser and system in a few words ("Firefox on Windows") from a User-Agent header, for the member's
 * list of sessions. Only the names below; anything else is "A browser" on "another system".
 */
export function describeDevice(userAgent: string | undefined): string {
  const ua = userAgent ?? '';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /OPR\/|Opera/.test(ua)
      ? 'Opera'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Chrome\/|Chromium\/|CriOS\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : 'A browser';
  const system = /iPhone|iPad|iPod/.test(ua)
    ? 'iOS'
    : /Android/.test(ua)
      ? 'Android'
      : /Windows/.test(ua)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macOS'
          : /CrOS/.test(ua)
            ? 'ChromeOS'
            : /Linux/.test(ua)
              ? 'Linux'
              : 'another system';
  return `${browser} on ${system}`;
}

/**
 * The database keeps only the SHA-256 of a session id, so a leaked copy of the table (a backup, a
 * log of queries) cannot be replayed as cookies. The id is 256 random bits, so a plain hash suffices.
 */
export function hashSessionId(id: string): string {
  return createHash('sha256').update(id, 'utf8').digest('base64url');
}

/** A new 256-bit session id. */
function newSessionId(): string {
  return randomBytes(32).toString('base64url');
}

/** The idle expiry for a session, never beyond its absolute end. */
function expiryFor(createdAt: number, now: number): Date {
  return new Date(Math.min(now + SESSION_IDLE_MS, createdAt + SESSION_ABSOLUTE_MS));
}

/** The raw session cookie of a request ('' without one), e.g. to seed something per browsing session. */
export function sessionCookieOf(request: FastifyRequest): string {
  return request.cookies[cookieName(request.server.config, SESSION_COOKIE)] ?? '';
}

/**
 * The stored (hashed) id of the request's session, when its cookie is present and correctly signed;
 * for work that outlives the request and must end with the session (an event stream).
 */
export function sessionHashOf(request: FastifyRequest): string | null {
  const raw = sessionCookieOf(request);
  if (!raw) return null;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value ? hashSessionId(unsigned.value) : null;
}

/**
 * Server-side sessions in the `sessions` table behind the signed, httpOnly `bh_session` cookie.
 * Registered in the scope behind the gate, so only requests that passed it read a session; the
 * decorations are made on the root (the instance handed in must be the root's or an encapsulated
 * child whose routes are the only ones that need a session).
 * Row: sid = hash of the id (see hashSessionId), sess = { userId, createdAt }, expire = idle expiry
 * capped at createdAt + absolute lifetime. Expired rows are purged hourly and at every sign-in.
 *
 * A row read is kept for SESSION_CACHE_MS in a SessionCache (session-cache.ts), so a burst of API
 * calls costs one query. Sign-out and sign-in drop their entry and writes to a member's row drop all
 * of that member's entries, so this process never serves what it changed; a change made by another
 * process sharing the database reaches this one through the cache bus when it commits (ADR 040).
 */
export async function sessionPlugin(app: FastifyInstance): Promise<void> {
  const { db, config } = app;
  const cookieBase = cookieOptions(config);
  const name = cookieName(config, SESSION_COOKIE);
  const cache = new SessionCache();
  const unregisterCache = registerSessionCache(cache);

  const setSessionCookie = (reply: FastifyReply, id: string, expire: Date) => {
    reply.setCookie(name, id, {
      ...cookieBase,
      signed: true,
      maxAge: Math.max(1, Math.floor((expire.getTime() - Date.now()) / 1000)),
    });
  };
  const clearSessionCookie = (reply: FastifyReply) => reply.clearCookie(name, cookieBase);

  /** The session id from the cookie, when present and correctly signed. */
  const readSessionId = (request: FastifyRequest): string | null => {
    const raw = request.cookies[name];
    if (!raw) return null;
    const unsigned = request.unsignCookie(raw);
    return unsigned.valid && unsigned.value ? unsigned.value : null;
  };

  app.decorateRequest('session', null as unknown as SessionHandle);

  /** Delete the session row, then its cache entry (in that order: see SessionCache.generation). */
  const destroySession = async (id: string) => {
    const sid = hashSessionId(id);
    try {
      await deleteSession(db, sid);
    } finally {
      cache.delete(sid);
    }
  };

  app.addHook('onRequest', async (request, reply) => {
    let currentId = readSessionId(request);

    request.session = {
      async signIn(userId) {
        const now = Date.now();
        await purgeExpiredSessions(db, new Date(now));
        if (currentId) await destroySession(currentId);
        const id = newSessionId();
        const expire = expiryFor(now, now);
        const device = describeDevice(request.headers['user-agent']);
        await insertSession(db, hashSessionId(id), { userId, createdAt: now, device }, expire);
        setSessionCookie(reply, id, expire);
        currentId = id;
      },
      async signOut() {
        if (currentId) await destroySession(currentId);
        currentId = null;
        request.user = null;
        clearSessionCookie(reply);
      },
    };

    if (!request.cookies[name]) return;
    if (!currentId) {
      // Tampered or signed with an old secret: stop the browser from sending it again.
      clearSessionCookie(reply);
      return;
    }

    const now = Date.now();
    const sid = hashSessionId(currentId);
    let found = cache.get(sid);
    if (!found) {
      const generation = cache.generation();
      found = await findSessionWithUser(db, sid, new Date(now));
      if (found) cache.set(sid, found, generation);
    }
    if (!found) {
      clearSessionCookie(reply);
      currentId = null;
      return;
    }
    request.user = found.user;

    // Sliding idle expiry, written at most once a day and never past the absolute end.
    const lastTouched = found.expire.getTime() - SESSION_IDLE_MS;
    const next = expiryFor(found.sess.createdAt, now);
    if (now - lastTouched > SESSION_TOUCH_AFTER_MS && next.getTime() > found.expire.getTime()) {
      await touchSession(db, sid, next);
      cache.touch(sid, next);
      setSessionCookie(reply, currentId, next);
    }
  });

  // Once an hour across processes (a periodic job, ADR 040).
  periodicJob(app, {
    name: 'sessions-purge',
    seconds: PURGE_INTERVAL_SECONDS,
    run: async () => {
      try {
        const purged = await purgeExpiredSessions(db, new Date());
        if (purged > 0) app.log.info({ purged }, 'purged expired sessions');
      } catch (error) {
        app.log.warn({ err: error }, 'could not purge expired sessions');
      }
    },
  });
  app.addHook('onClose', async () => {
    unregisterCache();
    cache.clear();
  });
}
