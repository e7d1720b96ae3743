import { describe, expect, it } from 'vitest';
import { findDataUrl } from './photo-json';

const PHOTO = 'data:image/jpeg;base64,/9j/4AAQSkZJRg==';

/** The data URL findDataUrl points at in `json`, or null. */
function found(json: string): string | null {
  const body = Buffer.from(json);
  const range = findDataUrl(body);
  return range ? body.toString('latin1', range.start, range.end) : null;
}

describe('findDataUrl', () => {
  it('finds the top-level imageUrl data URL wherever it sits among the fields', () => {
    expect(found(JSON.stringify({ title: 'Lamp', imageUrl: PHOTO, isService: false }))).toBe(PHOTO);
    expect(found(JSON.stringify({ imageUrl: PHOTO }))).toBe(PHOTO);
    expect(
      found(`\n{ "estimatedValue" : 12.5 ,\t"tags": [1, {"a": "}"}], "imageUrl" :\r"${PHOTO}" }\n`),
    ).toBe(PHOTO);
    expect(found(JSON.stringify({ description: 'say "imageUrl":"data:x" here', imageUrl: PHOTO }))).toBe(
      PHOTO,
    );
  });

  it('reads escaped keys as JSON.parse does', () => {
    expect(found(`{"image\\u0055rl": "${PHOTO}"}`)).toBe(PHOTO);
  });

  it('leaves anything it cannot vouch for to JSON.parse', () => {
    // No data URL, or not at the top level.
    expect(found(JSON.stringify({ title: 'Lamp' }))).toBeNull();
    expect(found(JSON.stringify({ imageUrl: '/photos/0123456789abcdef0123456789abcdef.webp' }))).toBeNull();
    expect(found(JSON.stringify({ imageUrl: null }))).toBeNull();
    expect(found(JSON.stringify({ nested: { imageUrl: PHOTO } }))).toBeNull();
    expect(found(JSON.stringify([{ imageUrl: PHOTO }]))).toBeNull();
    // A key twice (JSON.parse keeps the last), even spelt differently.
    expect(found(`{"imageUrl": "${PHOTO}", "imageUrl": "${PHOTO}"}`)).toBeNull();
    expect(found(`{"imageUrl": "${PHOTO}", "image\\u0055rl": null}`)).toBeNull();
    // Escapes inside the data URL (a serializer writing \\/ for /).
    expect(found(JSON.stringify({ imageUrl: PHOTO }).replaceAll('/', '\\/'))).toBeNull();
    // Not JSON.
    expect(found(`{"imageUrl": "${PHOTO}"`)).toBeNull();
    expect(found(`{"imageUrl" "${PHOTO}"}`)).toBeNull();
    expect(found(`{"imageUrl": "${PHOTO}" "title": "x"}`)).toBeNull();
    expect(found(`{"imageUrl": "${PHOTO}`)).toBeNull();
    expect(found('')).toBeNull();
  });
});
