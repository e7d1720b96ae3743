/**
 * What a barcode read from a photo is, apart from the reading itself (barcode.ts, which loads ZXing
 * and runs in the worker pool): the main thread describes a result without loading ZXing.
 */

/** A retail barcode read from the photo. */
export interface RetailBarcode {
  /** The digits, e.g. 9780261102217 (UPC-A is reported as its 12 digits). */
  digits: string;
  format: 'EAN-13' | 'UPC-A' | 'EAN-8' | 'UPC-E';
  /** An EAN-13 in the "Bookland" ranges 978 and 979: the book's ISBN-13. */
  isbn: boolean;
}

/** Greyscale pixels, one byte per pixel, row by row. */
export interface GreyImage {
  pixels: Buffer;
  width: number;
  height: number;
}

/** The barcode as a description shows it: the ISBN for books (unhyphenated: that needs the ranges table). */
export function describeBarcode(barcode: RetailBarcode): string {
  return barcode.isbn ? `ISBN ${barcode.digits}` : `${barcode.format} barcode ${barcode.digits}`;
}
