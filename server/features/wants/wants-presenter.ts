import type { Want } from '../../../common/schemas/listings';
import type { WantRow } from '../../db/schema/items';

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
    createdAt: row.createdAt.toISOString(),
  };
}
