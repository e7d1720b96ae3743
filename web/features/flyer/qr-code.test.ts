import jsQR from 'jsqr';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { qrCodeDataUrl } from './qr-code';

/** Decode a QR data URL the way a phone would see it: rasterised, then read from RGBA pixels. */
async function decode(dataUrl: string, size: number): Promise<string | null> {
  const [, base64 = ''] = dataUrl.split(',', 2);
  const { data, info } = await sharp(Buffer.from(base64, 'base64'))
    .resize(size, size, { kernel: 'nearest' })
    .flatten({ background: '#ffffff' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const pixels = new Uint8ClampedArray(data.buffer, data.byteOffset, data.length);
  return jsQR(pixels, info.width, info.height)?.data ?? null;
}

describe('qrCodeDataUrl', () => {
  it.each([
    'http://127.0.0.1:5199',
    'https://barterhood.example',
    'https://barter.example.org:8443/neighbors/',
  ])('makes an SVG data URL that decodes to %s', async (url) => {
    const dataUrl = await qrCodeDataUrl(url);
    expect(dataUrl).toMatch(/^data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+$/);
    // Read at print-like and at small preview sizes.
    expect(await decode(dataUrl, 600)).toBe(url);
    expect(await decode(dataUrl, 200)).toBe(url);
  });

  it('keeps the SVG namespace URL out of the text (the flyer names no address but PUBLIC_URL)', async () => {
    const dataUrl = await qrCodeDataUrl('https://barterhood.example');
    expect(dataUrl).not.toMatch(/https?:/);
    const svg = Buffer.from(dataUrl.split(',')[1] ?? '', 'base64').toString('utf8');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="300" height="300"/);
  });
});
