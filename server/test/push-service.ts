import { createECDH, createPublicKey, type ECDH, randomBytes, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

/**
 * A push service on this machine, for tests (ADR 087): it plays the browser's side as well. Each
 * device it makes has its own P-256 key pair and 16-byte auth secret, as PushManager.subscribe
 * makes them; a push POSTed to the device's endpoint is checked as a push service checks it (the
 * VAPID JWT of RFC 8292, signed by the key it names, for this origin, not expired) and decrypted as
 * the browser would (aes128gcm, RFC 8188/8291) with http_ece, the reference implementation by the
 * RFCs' author. What it got, or why it refused it, is kept for the test to read.
 */

interface Ece {
  decrypt(buffer: Buffer, params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: Buffer }): Buffer;
}
const ece = createRequire(import.meta.url)('http_ece') as Ece;

export interface ReceivedPush {
  device: string;
  /** The decrypted payload, as the service worker's `event.data.json()` reads it. */
  payload: unknown;
  /** The VAPID public key the push was signed with, and the JWT's claims. */
  vapidKey: string;
  claims: { aud: string; exp: number; sub: string };
  ttl: number;
  urgency: string | null;
}

export interface TestDevice {
  id: string;
  /** What the browser's PushSubscription.toJSON() gives, to POST to /api/push/subscriptions. */
  subscription: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
}

export interface TestPushService {
  origin: string;
  /** A new device (a browser subscribing): its own key pair and auth secret. */
  device(): TestDevice;
  /** Pushes received and decrypted, in order. */
  received: ReceivedPush[];
  /** Pushes refused (a bad signature or claims, or a payload that did not decrypt), and why. */
  refused: string[];
  /** The next push to arrive (or one already received and not yet awaited), for `device` if given. */
  next(device?: string): Promise<ReceivedPush>;
  /** Answer the device's next pushes with `status` (410: the browser unsubscribed; 429: slow down). */
  answer(device: string, status: number, headers?: Record<string, string>): void;
  /** Requests seen per device, answered or not. */
  attempts(device: string): number;
  close(): Promise<void>;
}

const b64url = (buffer: Buffer) => buffer.toString('base64url');

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** Check `vapid t=<jwt>, k=<key>` (RFC 8292): ES256 by the key, audience our origin, expiry ahead. */
function checkVapid(
  header: string | undefined,
  origin: string,
): { key: string; claims: ReceivedPush['claims'] } {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+),\s*k=([\w-]+)$/.exec(header ?? '');
  if (!match) throw new Error(`no VAPID authorization: ${header}`);
  const [token, key] = [match[1] as string, match[2] as string];
  const [head, body, signature] = token.split('.') as [string, string, string];
  const jose = JSON.parse(Buffer.from(head, 'base64url').toString()) as { alg?: string };
  if (jose.alg !== 'ES256') throw new Error(`JWT alg ${jose.alg}`);
  const point = Buffer.from(key, 'base64url');
  if (point.length !== 65 || point[0] !== 4) throw new Error('k is not an uncompressed P-256 point');
  const publicKey = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64url(point.subarray(1, 33)), y: b64url(point.subarray(33)) },
    format: 'jwk',
  });
  const signed = verify(
    'sha256',
    Buffer.from(`${head}.${body}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) throw new Error('the JWT signature does not verify with k');
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as ReceivedPush['claims'];
  if (claims.aud !== origin) throw new Error(`JWT aud ${claims.aud}, not ${origin}`);
  const now = Date.now() / 1000;
  if (!(claims.exp > now && claims.exp <= now + 24 * 60 * 60)) throw new Error(`JWT exp ${claims.exp}`);
  if (!/^(mailto:|https:)/.test(claims.sub)) throw new Error(`JWT sub ${claims.sub}`);
  return { key, claims };
}

export async function startTestPushService(port = 0): Promise<TestPushService> {
  const devices = new Map<string, { ecdh: ECDH; auth: Buffer }>();
  const answers = new Map<string, { status: number; headers: Record<string, string> }>();
  const seen = new Map<string, number>();
  const received: ReceivedPush[] = [];
  const refused: string[] = [];
  const waiting: Array<{ device?: string; resolve: (push: ReceivedPush) => void }> = [];
  const taken = new Set<ReceivedPush>();
  let origin = '';

  const deliver = (push: ReceivedPush) => {
    const index = waiting.findIndex((waiter) => waiter.device === undefined || waiter.device === push.device);
    if (index < 0) return;
    const [waiter] = waiting.splice(index, 1);
    taken.add(push);
    waiter?.resolve(push);
  };

  const server: Server = createServer(async (request, response) => {
    const id = /^\/push\/([\w-]+)$/.exec(request.url ?? '')?.[1];
    const device = id ? devices.get(id) : undefined;
    const body = await readBody(request);
    if (request.method !== 'POST' || !id || !device) {
      response.writeHead(404).end();
      return;
    }
    seen.set(id, (seen.get(id) ?? 0) + 1);
    const answer = answers.get(id);
    if (answer) {
      response.writeHead(answer.status, answer.headers).end();
      return;
    }
    try {
      if (request.headers['content-encoding'] !== 'aes128gcm') throw new Error('not aes128gcm');
      const { key, claims } = checkVapid(request.headers.authorization, origin);
      const plain = ece.decrypt(body, {
        version: 'aes128gcm',
        privateKey: device.ecdh,
        authSecret: device.auth,
      });
      const push: ReceivedPush = {
        device: id,
        payload: JSON.parse(plain.toString('utf8')),
        vapidKey: key,
        claims,
        ttl: Number(request.headers.ttl),
        urgency: (request.headers.urgency as string | undefined) ?? null,
      };
      received.push(push);
      response.writeHead(201, { location: `${origin}/message/${received.length}` }).end();
      deliver(push);
    } catch (error) {
      refused.push(error instanceof Error ? error.message : String(error));
      response.writeHead(400).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    received,
    refused,
    device() {
      const id = randomBytes(12).toString('base64url');
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      devices.set(id, { ecdh, auth });
      return {
        id,
        subscription: {
          endpoint: `${origin}/push/${id}`,
          expirationTime: null,
          keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(auth) },
        },
      };
    },
    next(device) {
      const ready = received.find(
        (push) => !taken.has(push) && (device === undefined || push.device === device),
      );
      if (ready) {
        taken.add(ready);
        return Promise.resolve(ready);
      }
      return new Promise((resolve) => waiting.push({ device, resolve }));
    },
    answer(device, status, headers = {}) {
      answers.set(device, { status, headers });
    },
    attempts: (device) => seen.get(device) ?? 0,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
