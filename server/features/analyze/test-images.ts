/**
 * Generated photos for the photo-analysis tests (API tests and the browser journey): a book cover
 * with a large title and an EAN-13 (ISBN) barcode, a label with text only, a blank photo. Drawn as
 * SVG and rendered with sharp, so no binary fixtures and no network. Text needs a system font
 * (DejaVu or Liberation, installed with Debian's Chromium).
 */
import sharp from 'sharp';

// EAN-13 digit patterns: 1 is a bar, 0 a space, 7 modules each.
const L_CODES = [
  '0001101',
  '0011001',
  '0010011',
  '0111101',
  '0100011',
  '0110001',
  '0101111',
  '0111011',
  '0110111',
  '0001011',
];
/** G codes are the L codes reversed and inverted; R codes are the L codes inverted. */
const invert = (bits: string) => bits.replace(/[01]/g, (bit) => (bit === '1' ? '0' : '1'));
const G_CODES = L_CODES.map((code) => invert(code).split('').reverse().join(''));
const R_CODES = L_CODES.map(invert);
/** Which of the six left digits use G codes, by the first digit (which is encoded only this way). */
const PARITY = [
  'LLLLLL',
  'LLGLGG',
  'LLGGLG',
  'LLGGGL',
  'LGLLGG',
  'LGGLLG',
  'LGGGLL',
  'LGLGLG',
  'LGLGGL',
  'LGGLGL',
];

/** The EAN-13 check digit of the first 12 digits. */
export function ean13CheckDigit(first12: string): number {
  const sum = first12
    .split('')
    .reduce((total, digit, index) => total + Number(digit) * (index % 2 === 0 ? 1 : 3), 0);
  return (10 - (sum % 10)) % 10;
}

/** The 95 modules of an EAN-13 barcode for 12 or 13 digits (the check digit is computed when missing). */
export function ean13Modules(digits: string): string {
  if (!/^\d{12,13}$/.test(digits)) throw new Error('EAN-13 needs 12 or 13 digits');
  const full = digits.length === 12 ? `${digits}${ean13CheckDigit(digits)}` : digits;
  if (Number(full[12]) !== ean13CheckDigit(full.slice(0, 12))) throw new Error('Wrong EAN-13 check digit');
  const parity = PARITY[Number(full[0])] ?? '';
  let modules = '101';
  for (let i = 1; i <= 6; i++) {
    const digit = Number(full[i]);
    modules += (parity[i - 1] === 'G' ? G_CODES : L_CODES)[digit];
  }
  modules += '01010';
  for (let i = 7; i <= 12; i++) modules += R_CODES[Number(full[i])];
  return `${modules}101`;
}

/** SVG rectangles for a barcode at (x, y), `moduleWidth` px per module, with a white quiet zone. */
function barcodeSvg(digits: string, x: number, y: number, moduleWidth: number, height: number): string {
  const modules = ean13Modules(digits);
  const quiet = 11 * moduleWidth;
  const bars: string[] = [];
  for (let i = 0; i < modules.length; i++) {
    if (modules[i] === '1') {
      bars.push(
        `<rect x="${x + quiet + i * moduleWidth}" y="${y}" width="${moduleWidth}" height="${height}"/>`,
      );
    }
  }
  const width = modules.length * moduleWidth + 2 * quiet;
  return `<rect x="${x}" y="${y - 20}" width="${width}" height="${height + 40}" fill="#ffffff"/><g fill="#000000">${bars.join('')}</g>`;
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export interface BookCoverOptions {
  title?: string;
  author?: string;
  /** 12 or 13 digits; 978... or 979... is an ISBN. */
  isbn?: string;
}

/** A portrait book cover: large dark title and author on cream, an ISBN barcode at the bottom. PNG bytes. */
export async function bookCoverPng(options: BookCoverOptions = {}): Promise<Buffer> {
  const title = escapeXml(options.title ?? 'The Hobbit');
  const author = escapeXml(options.author ?? 'J. R. R. Tolkien');
  const isbn = options.isbn ?? '978026110221';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="1100">
  <rect width="800" height="1100" fill="#f4ecd8"/>
  <rect x="0" y="0" width="800" height="90" fill="#1f3a5f"/>
  <text x="400" y="330" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-weight="bold" font-size="110" text-anchor="middle" fill="#111111">${title}</text>
  <text x="400" y="470" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="52" text-anchor="middle" fill="#111111">${author}</text>
  ${barcodeSvg(isbn, 190, 760, 4, 220)}
</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A landscape label with lines of large dark text on white, no barcode. PNG bytes. */
export async function textLabelPng(lines: string[]): Promise<Buffer> {
  const text = lines
    .map(
      (line, index) =>
        `<text x="60" y="${170 + index * 130}" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-weight="bold" font-size="${index === 0 ? 100 : 64}" fill="#111111">${escapeXml(line)}</text>`,
    )
    .join('');
  const height = 140 + lines.length * 130;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="${height}"><rect width="1200" height="${height}" fill="#ffffff"/>${text}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A photo with nothing on it: one flat colour, landscape. PNG bytes. */
export async function blankPng(color = '#2e7d32'): Promise<Buffer> {
  return sharp({ create: { width: 900, height: 600, channels: 3, background: color } })
    .png()
    .toBuffer();
}
