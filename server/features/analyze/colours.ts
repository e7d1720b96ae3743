/** RGB pixels, three bytes per pixel. */
export interface RgbImage {
  pixels: Buffer;
  width: number;
  height: number;
}

/** A colour name for one pixel, from its hue, saturation and lightness (a small everyday palette). */
export function colourName(r: number, g: number, b: number): string {
  const max = Math.max(r, g, b) / 255;
  const min = Math.min(r, g, b) / 255;
  const lightness = (max + min) / 2;
  const chroma = max - min;
  const saturation = chroma === 0 ? 0 : chroma / (1 - Math.abs(2 * lightness - 1));
  if (lightness < 0.13) return 'black';
  if (lightness > 0.93) return 'white';
  if (saturation < 0.15 || chroma < 0.08) {
    if (lightness > 0.8) return 'white';
    return 'grey';
  }
  let hue = 0;
  const [rn, gn, bn] = [r / 255, g / 255, b / 255];
  if (max === rn) hue = 60 * (((gn - bn) / chroma) % 6);
  else if (max === gn) hue = 60 * ((bn - rn) / chroma + 2);
  else hue = 60 * ((rn - gn) / chroma + 4);
  if (hue < 0) hue += 360;

  if (hue >= 20 && hue < 55 && lightness > 0.72) return 'beige';
  if (hue < 15 || hue >= 345) return lightness > 0.7 ? 'pink' : 'red';
  if (hue < 45) return lightness < 0.4 ? 'brown' : 'orange';
  if (hue < 65) return lightness < 0.3 ? 'brown' : 'yellow';
  if (hue < 165) return 'green';
  if (hue < 195) return 'teal';
  if (hue < 255) return lightness < 0.3 ? 'navy' : 'blue';
  if (hue < 290) return 'purple';
  return lightness > 0.6 ? 'pink' : 'purple';
}

/**
 * The colours covering at least `minShare` of a (small, downscaled) image, most common first, at most
 * three: e.g. ['beige', 'navy'].
 */
export function dominantColours(image: RgbImage, minShare = 0.12): string[] {
  const counts = new Map<string, number>();
  const total = image.width * image.height;
  for (let i = 0; i + 2 < image.pixels.length; i += 3) {
    const name = colourName(image.pixels[i] ?? 0, image.pixels[i + 1] ?? 0, image.pixels[i + 2] ?? 0);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts.entries()]
    .filter(([, count]) => count / total >= minShare)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([name]) => name);
}

/** "beige", "beige and navy", "beige, navy and black". */
export function listInWords(words: string[]): string {
  if (words.length <= 1) return words[0] ?? '';
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

export type Orientation = 'portrait' | 'landscape' | 'square';

/** Portrait or landscape from the upright size; within 10 % of square is square. */
export function orientationOf(width: number, height: number): Orientation {
  if (Math.abs(width - height) / Math.max(width, height) < 0.1) return 'square';
  return width > height ? 'landscape' : 'portrait';
}
