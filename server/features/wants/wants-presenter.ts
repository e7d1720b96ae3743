import type { Want } from '#common/schemas/listings.ts';
import type { WantRow } from '../../db/schema/trading';

/** A want as its owner sees it; a whitelist, so the owner's id stays on the server. */
export function presentWant(row: WantRow): Want {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    category: row.category,
    isService: row.isService,
    maxValue: row.maxValue,
    isActive: row.isActive,
    fulfilledAt: row.fulfilledAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
