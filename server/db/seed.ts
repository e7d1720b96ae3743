import { count } from 'drizzle-orm';
import { mulberry32 } from '../lib/random';
import { loadSharp } from '../photos/sharp';
import type { PhotoStore } from '../storage/photo-store';
import type { Db } from './client';
import { items, users, wants } from './schema/index';
import { SEED_MEMBERS, SEED_TOWN } from './seed-data';

const PALETTES: Array<[string, string]> = [
  ['#0f766e', '#5eead4'],
  ['#7c3aed', '#c4b5fd'],
  ['#b45309', '#fcd34d'],
  ['#be123c', '#fda4af'],
  ['#1d4ed8', '#93c5fd'],
  ['#15803d', '#86efac'],
  ['#4338ca', '#a5b4fc'],
  ['#c2410c', '#fdba74'],
];

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * An illustrative card (not a photo) as SVG: gradient, shapes and the title, clearly a drawing. No
 * word of the app's own (the category name was one, "APPLIANCES"): one image serves readers of every
 * language, and the card shows the category beside it in theirs (ADR 060). The title is the demo
 * member's own text, shown as written like any member's.
 */
export function illustrationSvg(title: string, index: number): string {
  const [dark, light] = PALETTES[index % PALETTES.length] as [string, string];
  const words = title.split(' ');
  const lines: string[] = [''];
  for (const word of words) {
    const last = lines[lines.length - 1] ?? '';
    if ((last + word).length > 18 && last) lines.push(word);
    else lines[lines.length - 1] = last ? `${last} ${word}` : word;
  }
  const text = lines
    .slice(0, 3)
    .map(
      (line, i) =>
        `<text x="60" y="${300 + i * 64}" font-size="54" font-weight="700">${escapeXml(line)}</text>`,
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600" viewBox="0 0 800 600">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${light}"/><stop offset="1" stop-color="${dark}"/></linearGradient></defs>
    <rect width="800" height="600" fill="url(#g)"/>
    <circle cx="${640 - (index % 5) * 30}" cy="${130 + (index % 3) * 20}" r="110" fill="#ffffff" fill-opacity="0.22"/>
    <rect x="470" y="380" width="260" height="160" rx="28" fill="#ffffff" fill-opacity="0.16"/>
    <g font-family="DejaVu Sans, Arial, sans-serif" fill="#ffffff">${text}</g></svg>`;
}

/**
 * The illustration as the WebP the photo store keeps. sharp (a native module, about 0.1 s to load) is
 * loaded here, not at the server's start: a restart only counts the members (ADR 101, ADR 122).
 */
export async function illustrationFor(title: string, index: number): Promise<Buffer> {
  return loadSharp()(Buffer.from(illustrationSvg(title, index)))
    .webp({ quality: 78 })
    .toBuffer();
}

export interface SeedSummary {
  members: number;
  items: number;
  wants: number;
}

/** Fill an empty database with the demo neighbourhood; leaves a database with members untouched. */
export async function seedIfEmpty(db: Db, store: PhotoStore) {
  const [row] = await db.select({ n: count() }).from(users);
  if ((row?.n ?? 0) > 0) return null;
  return seedDemoNeighbourhood(db, store);
}

/** Insert the demo members, their listings (with generated illustrations) and their wants. */
export async function seedDemoNeighbourhood(db: Db, store: PhotoStore): Promise<SeedSummary> {
  const random = mulberry32(20261122);
  const summary: SeedSummary = { members: 0, items: 0, wants: 0 };
  let imageIndex = 0;
  const images = new Map<string, string>();
  for (const member of SEED_MEMBERS) {
    for (const listing of member.items) {
      images.set(listing.title, await store.put(await illustrationFor(listing.title, imageIndex++), 'webp'));
    }
  }
  await db.transaction(async (tx) => {
    for (const member of SEED_MEMBERS) {
      // Spread members within about four miles of the town centre.
      const latitude = SEED_TOWN.latitude + (random() - 0.5) * 0.11;
      const longitude = SEED_TOWN.longitude + (random() - 0.5) * 0.15;
      const [user] = await tx
        .insert(users)
        .values({
          firstName: member.firstName,
          lastName: member.lastName,
          location: `${member.neighbourhood}, ${SEED_TOWN.name}`,
          latitude: Number(latitude.toFixed(6)),
          longitude: Number(longitude.toFixed(6)),
          maxTravelDistance: 25,
          onboardingCompleted: true,
        })
        .returning({ id: users.id });
      if (!user) throw new Error('seed: member insert returned nothing');
      summary.members++;
      await tx.insert(items).values(
        member.items.map((listing) => ({
          userId: user.id,
          title: listing.title,
          description: listing.description,
          category: listing.category,
          isService: listing.isService ?? false,
          estimatedValue: listing.estimatedValue ?? null,
          imageUrl: images.get(listing.title) ?? null,
          createdAt: new Date(Date.now() - Math.floor(random() * 14 * 24 * 3600 * 1000)),
        })),
      );
      summary.items += member.items.length;
      await tx.insert(wants).values(
        member.wants.map((want) => ({
          userId: user.id,
          title: want.title,
          description: want.description ?? null,
          category: want.category,
          isService: want.isService ?? false,
          maxValue: want.maxValue ?? null,
        })),
      );
      summary.wants += member.wants.length;
    }
  });
  return summary;
}
