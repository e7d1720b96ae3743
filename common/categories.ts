/** Item and want categories (spec section 3, with {product} settled as "barter" by docs/product.md). */

export const GOODS_CATEGORIES = [
  'antiques',
  'appliances',
  'arts+crafts',
  'atv/utv/sno',
  'auto parts',
  'aviation',
  'baby+kid',
  'barter',
  'beauty+hlth',
  'bike parts',
  'bikes',
  'boat parts',
  'boats',
  'books',
  'business',
  'cars+trucks',
  'cds/dvd/vhs',
  'cell phones',
  'clothes+acc',
  'collectibles',
  'computer parts',
  'computers',
  'electronics',
  'farm+garden',
  'free',
  'furniture',
  'garage sale',
  'general',
  'heavy equip',
  'household',
  'jewelry',
  'materials',
  'motorcycle parts',
  'motorcycles',
  'music instr',
  'photo+video',
  'rvs+camp',
  'sporting',
  'tickets',
  'tools',
  'toys+games',
  'trailers',
  'video gaming',
  'wanted',
  'wheels+tires',
] as const;

export const SERVICE_CATEGORIES = [
  'automotive',
  'beauty',
  'cell/mobile',
  'computer',
  'creative',
  'cycle',
  'event',
  'farm+garden',
  'financial',
  'health/well',
  'household',
  'labor/move',
  'legal',
  'lessons',
  'marine',
  'pet',
  'real estate',
  'skilled trade',
  'sm biz ads',
  'travel/vac',
  'write/ed/tran',
] as const;

export type GoodsCategory = (typeof GOODS_CATEGORIES)[number];
export type ServiceCategory = (typeof SERVICE_CATEGORIES)[number];
export type Category = GoodsCategory | ServiceCategory;

/** The category list that applies to a listing: services use the service list, goods the goods list. */
export function categoriesFor(isService: boolean): readonly string[] {
  return isService ? SERVICE_CATEGORIES : GOODS_CATEGORIES;
}

/** True when `category` belongs to the list for goods or services, as `isService` says. */
export function isCategoryAllowed(category: string, isService: boolean): boolean {
  return categoriesFor(isService).includes(category);
}
