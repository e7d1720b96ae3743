import { createCipheriv, createDecipheriv, hkdfSync, randomFillSync } from 'node:crypto';

const IV_BYTES = 12;
const POSITION_BYTES = 8;
const TAG_BYTES = 16;
/** base64url of iv + encrypted position + tag: 36 bytes, 48 characters. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{48}$/;
/** Nonces drawn from the system's random source at once, 4,096 at a time (48 KB). */
const NONCE_POOL_BYTES = IV_BYTES * 4096;
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
  /** Derived once, when the codec is made (one per process), never per id. */
  readonly #key: Buffer;
  /**
   * Random nonces, each used once: one draw from the system's random source per 4,096 ids. A draw
   * per id (`randomBytes`) was most of an id's cost (issue 27: 1.2 s of main-thread CPU over the
   * evening bench); the nonces are as random, only fetched in bulk.
   */
  readonly #nonces = Buffer.alloc(NONCE_POOL_BYTES);
  #nonceAt = NONCE_POOL_BYTES;

  constructor(secret: string) {
    this.#key = Buffer.from(hkdfSync('sha256', secret, '', KEY_INFO, 32));
  }

  #nonce(): Buffer {
    if (this.#nonceAt >= NONCE_POOL_BYTES) {
      randomFillSync(this.#nonces);
      this.#nonceAt = 0;
    }
    const nonce = this.#nonces.subarray(this.#nonceAt, this.#nonceAt + IV_BYTES);
    this.#nonceAt += IV_BYTES;
    return nonce;
  }

  /** The opaque id of `position` for `userId`'s streams (a fresh one each time). */
  encode(userId: string, position: number): string {
    const token = Buffer.allocUnsafe(IV_BYTES + POSITION_BYTES + TAG_BYTES);
    const iv = this.#nonce();
    iv.copy(token, 0);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(userId));
    const plain = Buffer.allocUnsafe(POSITION_BYTES);
    plain.writeBigUInt64BE(BigInt(position));
    // GCM is a stream mode: update gives all 8 bytes of ciphertext, final none.
    cipher.update(plain).copy(token, IV_BYTES);
    cipher.final();
    cipher.getAuthTag().copy(token, IV_BYTES + POSITION_BYTES);
    return token.toString('base64url');
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
