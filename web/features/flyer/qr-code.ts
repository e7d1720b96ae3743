import { queryOptions, useQuery } from '@tanstack/react-query';
import { importChunk } from '../../lib/import-chunk';
import { flyerKeys } from '../../lib/query-keys';

/** Base64 of a string's UTF-8 bytes (btoa alone takes Latin-1 only). */
function base64Utf8(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * A QR code for `text` as an SVG data URL, made in the browser: never by a remote service
 * (docs/product.md). `qrcode` is imported on first use, so it stays out of the initial bundle.
 * SVG prints sharp at any size and needs no canvas; base64 keeps the SVG's namespace URL out of
 * the flyer's text.
 */
export async function qrCodeDataUrl(text: string): Promise<string> {
  // A CommonJS package: its exports arrive as the default export.
  const { default: QRCode } = await importChunk(() => import('qrcode'));
  const svg = await QRCode.toString(text, {
    type: 'svg',
    errorCorrectionLevel: 'M',
    margin: 2,
    width: 300,
    color: { dark: '#000000', light: '#ffffff' },
  });
  return `data:image/svg+xml;base64,${base64Utf8(svg)}`;
}

/** The QR code for `text`, made once per text and kept (no network involved). */
export const qrCodeQuery = (text: string | undefined) =>
  queryOptions({
    queryKey: flyerKeys.qrCode(text),
    queryFn: () => qrCodeDataUrl(text ?? ''),
    enabled: Boolean(text),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  });

export function useQrCode(text: string | undefined) {
  return useQuery(qrCodeQuery(text));
}
