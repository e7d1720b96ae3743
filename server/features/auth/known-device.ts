import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cookieName, cookieOptions } from '../../plugins/security';

/**
 * The "known device" cookie (ADR 016): set at every successful password sign-in, it names the
 * accounts this browser has signed into, so their owner skips the account-wide sign-in throttle that
 * guesses from many addresses trigger (login-throttle.ts). Signed (a visitor cannot make one up) and
 * httpOnly; it holds a random device id, when it was issued and, per account, a keyed hash of the
 * e-mail (the cookie does not show which addresses signed in here). Kept across sign-out: it is
 * about the device, not the session.
 */
export const KNOWN_DEVICE_COOKIE = 'bh_device';
/** A known device stays known this long after its last successful sign-in. */
export const KNOWN_DEVICE_MAX_AGE_MS = 180 * 24 * 60 * 60 * 1000;
/** The most accounts one browser is remembered for (the most recent first). */
const MAX_ACCOUNTS = 10;
const VERSION = 'k1';

export interface KnownDevice {
  /** Random, per browser: the throttle's source for this device's attempts. */
  id: string;
  issuedAt: number;
  /** accountTag of each account signed into here. */
  accounts: string[];
}

/** The cookie's mark for an account: a keyed hash of its normalised e-mail. */
function accountTag(secret: string, email: string): string {
  return createHmac('sha256', secret).update(`known-device\0${email}`).digest('base64url').slice(0, 22);
}

/** The known-device cookie of this request, when present, correctly signed and not too old. */
export function readKnownDevice(request: FastifyRequest, now = Date.now()): KnownDevice | null {
  const raw = request.cookies[cookieName(request.server.config, KNOWN_DEVICE_COOKIE)];
  if (!raw) return null;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || !unsigned.value) return null;
  const [version, id, issued, accounts, ...rest] = unsigned.value.split('.');
  if (version !== VERSION || !id || !issued || accounts === undefined || rest.length) return null;
  const issuedAt = Number.parseInt(issued, 36);
  if (!Number.isFinite(issuedAt) || now - issuedAt > KNOWN_DEVICE_MAX_AGE_MS || issuedAt > now + 60_000) {
    return null;
  }
  return { id, issuedAt, accounts: accounts ? accounts.split('~') : [] };
}

/** True when this device has signed into the account with this (normalised) e-mail. */
export function isKnownFor(request: FastifyRequest, device: KnownDevice | null, email: string): boolean {
  return Boolean(device?.accounts.includes(accountTag(request.server.config.sessionSecret, email)));
}

/** After a successful sign-in: remember the account on this device (a new device id if it had none). */
export function rememberDevice(
  request: FastifyRequest,
  reply: FastifyReply,
  device: KnownDevice | null,
  email: string,
  now = Date.now(),
): void {
  const { config } = request.server;
  const tag = accountTag(config.sessionSecret, email);
  const accounts = [tag, ...(device?.accounts ?? []).filter((known) => known !== tag)].slice(0, MAX_ACCOUNTS);
  const id = device?.id ?? randomBytes(16).toString('base64url');
  reply.setCookie(
    cookieName(config, KNOWN_DEVICE_COOKIE),
    [VERSION, id, now.toString(36), accounts.join('~')].join('.'),
    { ...cookieOptions(config), signed: true, maxAge: Math.floor(KNOWN_DEVICE_MAX_AGE_MS / 1000) },
  );
}
