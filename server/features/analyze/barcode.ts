import {
  BarcodeFormat,
  BinaryBitmap,
  DecodeHintType,
  HybridBinarizer,
  MultiFormatReader,
  NotFoundException,
  RGBLuminanceSource,
} from '@zxing/library';
import type { GreyImage, RetailBarcode } from './retail-barcode';

const FORMAT_NAMES = new Map<BarcodeFormat, RetailBarcode['format']>([
  [BarcodeFormat.EAN_13, 'EAN-13'],
  [BarcodeFormat.UPC_A, 'UPC-A'],
  [BarcodeFormat.EAN_8, 'EAN-8'],
  [BarcodeFormat.UPC_E, 'UPC-E'],
]);

const HINTS = new Map<DecodeHintType, unknown>([
  [DecodeHintType.POSSIBLE_FORMATS, [...FORMAT_NAMES.keys()]],
  [DecodeHintType.TRY_HARDER, true],
]);

/**
 * Find an EAN-13, UPC-A, EAN-8 or UPC-E barcode in the image with ZXing's pure-JavaScript port
 * (no WebAssembly, no downloads). ZXing checks the check digit, so a result is trustworthy.
 * Pass a rotated copy to find vertical barcodes. Returns null when there is none.
 */
export function decodeRetailBarcode(image: GreyImage): RetailBarcode | null {
  const luminances = new Uint8ClampedArray(image.pixels.buffer, image.pixels.byteOffset, image.pixels.length);
  const source = new RGBLuminanceSource(luminances, image.width, image.height);
  const reader = new MultiFormatReader();
  reader.setHints(HINTS);
  try {
    const result = reader.decode(new BinaryBitmap(new HybridBinarizer(source)));
    const format = FORMAT_NAMES.get(result.getBarcodeFormat());
    const digits = result.getText();
    if (!format || !/^\d{8,13}$/.test(digits)) return null;
    return { digits, format, isbn: format === 'EAN-13' && /^97[89]/.test(digits) };
  } catch (error) {
    if (error instanceof NotFoundException || isZxingMiss(error)) return null;
    throw error;
  }
}

/** ZXing signals "no barcode here" with several exception types (not found, checksum, format). */
function isZxingMiss(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return typeof name === 'string' && /NotFoundException|ChecksumException|FormatException/.test(String(name));
}
