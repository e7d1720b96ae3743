import { describe, expect, it } from 'vitest';
import { EventIdCodec } from './event-ids';

const SECRET = 'a-session-secret-of-at-least-32-characters';
const ANN = '3f1c2a9e-0b7d-4c1e-9a51-5d0f3e7b8c21';
const BOB = '8d2e4b6a-1c3f-4e5a-b7d9-0f1e2d3c4b5a';

describe('EventIdCodec (ADR 054)', () => {
  const codec = new EventIdCodec(SECRET);

  it('gives back the position for the member it was made for', () => {
    for (const position of [0, 1, 4711, 2 ** 31, Number.MAX_SAFE_INTEGER]) {
      expect(codec.decode(ANN, codec.encode(ANN, position))).toBe(position);
    }
  });

  it('writes an id that tells nothing: fixed length, fresh each time, no digits of the position', () => {
    const ids = [1, 2, 1_000_000].map((position) => codec.encode(ANN, position));
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{48}$/);
    expect(codec.encode(ANN, 4711)).not.toBe(codec.encode(ANN, 4711));
    expect(new Set(ids.map((id) => id.length))).toEqual(new Set([48]));
    // The same position twice shares no prefix or suffix a page could compare.
    const [a, b] = [codec.encode(ANN, 5), codec.encode(ANN, 5)];
    expect(a.slice(0, 8)).not.toBe(b.slice(0, 8));
    expect(a.slice(-8)).not.toBe(b.slice(-8));
  });

  it('never repeats a nonce and still opens every id across many ids (the nonces are drawn in bulk)', () => {
    const fresh = new EventIdCodec(SECRET);
    const ids = Array.from({ length: 10_000 }, (_, i) => fresh.encode(ANN, i));
    const nonces = new Set(ids.map((id) => Buffer.from(id, 'base64url').subarray(0, 12).toString('hex')));
    expect(nonces.size).toBe(ids.length);
    expect(ids.map((id) => fresh.decode(ANN, id))).toEqual(ids.map((_, i) => i));
  });

  it("refuses another member's id, another secret's, and any altered one", () => {
    const id = codec.encode(ANN, 99);
    expect(codec.decode(BOB, id)).toBeNull();
    expect(new EventIdCodec(`${SECRET}-rotated`).decode(ANN, id)).toBeNull();
    for (let at = 0; at < id.length; at++) {
      const flipped = `${id.slice(0, at)}${id[at] === 'A' ? 'B' : 'A'}${id.slice(at + 1)}`;
      expect(codec.decode(ANN, flipped), `character ${at}`).toBeNull();
    }
  });

  it('says null, never throws, for garbage, overlong or control-character text', () => {
    for (const bad of [
      '',
      '42',
      '-1',
      'abc',
      'A'.repeat(48),
      'A'.repeat(47),
      `${codec.encode(ANN, 1)}A`,
      'x'.repeat(100_000),
      '\u0000'.repeat(48),
      `${codec.encode(ANN, 1).slice(0, 47)}\n`,
      '€'.repeat(48),
    ]) {
      expect(codec.decode(ANN, bad)).toBeNull();
    }
  });
});
