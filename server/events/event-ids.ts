import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const POSITION_BYTES = 8;
const TAG_BYTES = 16;
/** base64url of iv + encrypted position + tag: 36 bytes, 48 characters. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{48}$/;
/** Binds a key to this one use, so the session secret's other uses never share it. */
const KEY_INFO = 'barterhood member event ids v1';

/**
 * The SSE `id` a member's page sees (ADR 054): the stream position (a `member_events` id, numbered
 * site-wide) sealed with AES-256-GCM under a key derived from the server's secret, the member's id as
 * associated data. A page learns nothing from it (not the count of anyone's events, not even the
 * order of two of its own), and an id that was forged, altered, made for another member or under
 * another secret does not open: `decode` says null, and the stream answers with a resync.
 */
export class EventIdCodec {
  readonly #key: Buffer;

  constructor(secret: string) {
    this.#key = Buffer.from(hkdfSync('sha256', secret, '', KEY_INFO, 32));
  }

  /** The opaque id of `position` for `userId`'s streams (a fresh one each time). */
  encode(userId: string, position: number): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(userId));
    const plain = Buffer.alloc(POSITION_BYTES);
    plain.writeBigUInt64BE(BigInt(position));
    const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
  }

  /** The position an id of `userId`'s stream stands for; null for anything else, never a throw. */
  decode(userId: string, token: string): number | null {
    if (!TOKEN_PATTERN.test(token)) return null;
    const bytes = Buffer.from(token, 'base64url');
    const iv = bytes.subarray(0, IV_BYTES);
    const sealed = bytes.subarray(IV_BYTES, IV_BYTES + POSITION_BYTES);
    const tag = bytes.subarray(IV_BYTES + POSITION_BYTES);
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(userId));
      decipher.setAuthTag(tag);
      const plain = Buffer.concat([decipher.update(sealed), decipher.final()]);
      const position = plain.readBigUInt64BE();
      return position <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(position) : null;
    } catch {
      // The tag did not match: not an id this server gave this member.
      return null;
    }
  }
}
