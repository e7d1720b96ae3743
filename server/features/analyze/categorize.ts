import type { GoodsCategory, ServiceCategory } from '#common/categories.ts';

/** A category the words on an item point to, with how sure that is (0 to 1). */
export interface CategoryGuess {
  category: GoodsCategory | ServiceCategory;
  isService: boolean;
  confidence: number;
}

interface Rule {
  category: GoodsCategory | ServiceCategory;
  isService?: true;
  /** Makers whose name alone says what the item is. */
  brands?: string[];
  /** Words and phrases (lower case, words separated by single spaces). */
  words: string[];
}

/**
 * A keyword table per category (issue 28: every category a photo's words commonly name, goods and
 * services): brands and service words count double, other words once; a word also matches its plural. Phrases are matched on whole words after
 * lower-casing and turning punctuation into spaces ("Black+Decker" is "black decker").
 */
const RULES: Rule[] = [
  {
    category: 'books',
    brands: ['penguin books', 'harpercollins', 'isbn'],
    words: [
      'novel',
      'paperback',
      'hardcover',
      'hardback',
      'edition',
      'chapter',
      'bestseller',
      'bestselling',
      'author of',
      'cookbook',
      'volume',
      'stories',
    ],
  },
  {
    category: 'tools',
    brands: [
      'dewalt',
      'makita',
      'bosch',
      'milwaukee',
      'ryobi',
      'black decker',
      'black and decker',
      'stanley',
      'craftsman',
      'hilti',
      'metabo',
      'festool',
      'einhell',
      'ridgid',
      'kobalt',
      'worx',
      'hitachi',
      'irwin',
    ],
    words: [
      'drill',
      'cordless',
      'impact driver',
      'saw',
      'circular saw',
      'jigsaw',
      'hammer',
      'wrench',
      'spanner',
      'screwdriver',
      'sander',
      'grinder',
      'pliers',
      'chisel',
      'toolbox',
      'tool kit',
      'socket set',
    ],
  },
  {
    category: 'electronics',
    brands: ['sony', 'jbl', 'bose', 'philips'],
    words: [
      'bluetooth',
      'speaker',
      'headphones',
      'earbuds',
      'hdmi',
      'usb',
      'amplifier',
      'radio',
      'television',
      'projector',
      'wireless',
    ],
  },
  { category: 'computers', brands: ['macbook', 'thinkpad', 'chromebook'], words: ['laptop', 'desktop pc'] },
  {
    category: 'computer parts',
    brands: ['geforce', 'radeon', 'nvidia'],
    words: ['ssd', 'graphics card', 'motherboard', 'ddr4', 'ddr5', 'hard drive', 'monitor'],
  },
  { category: 'cell phones', brands: ['iphone'], words: ['smartphone', 'mobile phone'] },
  {
    category: 'video gaming',
    brands: ['playstation', 'xbox', 'nintendo', 'ps4', 'ps5'],
    words: ['video game', 'controller', 'gamepad'],
  },
  {
    category: 'toys+games',
    brands: ['lego', 'hasbro', 'mattel', 'playmobil', 'barbie'],
    words: ['puzzle', 'board game', 'jigsaw puzzle', 'pieces', 'toy', 'card game'],
  },
  { category: 'cds/dvd/vhs', words: ['dvd', 'blu ray', 'compact disc', 'vhs', 'audio cd'] },
  {
    category: 'music instr',
    brands: ['fender', 'gibson', 'epiphone'],
    words: ['guitar', 'ukulele', 'violin', 'piano', 'drum', 'keyboard'],
  },
  {
    category: 'photo+video',
    brands: ['canon', 'nikon', 'gopro', 'fujifilm'],
    words: ['camera', 'lens', 'tripod', 'camcorder'],
  },
  {
    category: 'appliances',
    brands: ['kitchenaid', 'nespresso', 'dyson', 'breville'],
    words: [
      'blender',
      'toaster',
      'microwave',
      'kettle',
      'coffee maker',
      'vacuum',
      'air fryer',
      'dishwasher',
      'washing machine',
      'mixer',
    ],
  },
  { category: 'baby+kid', brands: ['pampers'], words: ['baby', 'infant', 'stroller', 'toddler', 'newborn'] },
  {
    category: 'beauty+hlth',
    words: [
      'shampoo',
      'conditioner',
      'lotion',
      'perfume',
      'eau de',
      'vitamin',
      'spf',
      'moisturizer',
      'moisturiser',
    ],
  },
  {
    category: 'farm+garden',
    words: ['seeds', 'garden', 'fertilizer', 'fertiliser', 'compost', 'potting', 'planter', 'hose', 'lawn'],
  },
  {
    category: 'sporting',
    words: [
      'tennis',
      'golf',
      'football',
      'basketball',
      'soccer',
      'yoga',
      'dumbbell',
      'racket',
      'skateboard',
      'fitness',
    ],
  },
  { category: 'bikes', words: ['bicycle', 'mountain bike', 'road bike', 'bike'] },
  { category: 'bike parts', brands: ['shimano'], words: ['derailleur', 'inner tube', 'bike helmet'] },
  {
    category: 'clothes+acc',
    brands: ['nike', 'adidas', 'levi s'],
    words: [
      'jacket',
      'shirt',
      't shirt',
      'jeans',
      'dress',
      'shoes',
      'sneakers',
      'cotton',
      'hoodie',
      'sweater',
    ],
  },
  { category: 'jewelry', words: ['necklace', 'bracelet', 'earrings', 'sterling silver', '14k', '18k'] },
  {
    category: 'furniture',
    brands: ['ikea'],
    words: ['chair', 'sofa', 'couch', 'shelf', 'bookcase', 'desk', 'dresser', 'wardrobe'],
  },
  {
    category: 'auto parts',
    brands: ['castrol', 'bosch wiper'],
    words: ['motor oil', 'brake pads', 'spark plug', 'wiper blade'],
  },
  {
    category: 'arts+crafts',
    words: [
      'acrylic',
      'watercolor',
      'watercolour',
      'paint brush',
      'yarn',
      'crochet',
      'knitting',
      'sketchbook',
      'canvas',
    ],
  },
  {
    category: 'rvs+camp',
    brands: ['coleman', 'msr', 'jetboil'],
    words: ['tent', 'camping', 'sleeping bag', 'camp stove', 'lantern', 'hammock', 'cooler', 'sleeping pad'],
  },
  {
    category: 'household',
    brands: ['pyrex', 'le creuset', 'tupperware', 'corelle'],
    words: [
      'lamp',
      'rug',
      'curtain',
      'pillow',
      'blanket',
      'duvet',
      'towel',
      'plate',
      'mug',
      'cookware',
      'frying pan',
      'saucepan',
      'cutlery',
      'vase',
      'candle',
      'laundry basket',
      'dinnerware',
    ],
  },
  {
    category: 'collectibles',
    words: ['collectible', 'collector', 'limited edition', 'trading card', 'figurine', 'coin', 'memorabilia'],
  },
  { category: 'antiques', words: ['antique', 'victorian', 'circa', 'edwardian'] },
  { category: 'tickets', words: ['ticket', 'admit one', 'admission', 'concert', 'festival pass'] },
  {
    category: 'wheels+tires',
    brands: ['michelin', 'goodyear', 'bridgestone', 'pirelli'],
    words: ['tire', 'tyre', 'alloy wheel', 'hubcap', 'snow chains'],
  },
  { category: 'cars+trucks', words: ['sedan', 'pickup truck', 'hatchback', 'station wagon', 'minivan'] },
  {
    category: 'motorcycles',
    brands: ['harley davidson', 'ducati', 'kawasaki', 'vespa'],
    words: ['motorcycle', 'motorbike', 'scooter', 'moped'],
  },
  { category: 'motorcycle parts', words: ['motorcycle helmet', 'saddlebag', 'motorcycle exhaust'] },
  { category: 'boats', words: ['kayak', 'canoe', 'paddle board', 'sailboat', 'dinghy', 'rowboat'] },
  { category: 'boat parts', words: ['outboard motor', 'boat propeller', 'bilge pump', 'life jacket'] },
  {
    category: 'materials',
    words: ['lumber', 'plywood', 'tiles', 'bricks', 'drywall', 'insulation', 'pavers', 'reclaimed wood'],
  },
  { category: 'heavy equip', words: ['excavator', 'forklift', 'skid steer', 'backhoe'] },
  // Services: service words count double, so "lawn mowing" is the service, not a lawn.
  {
    category: 'farm+garden',
    isService: true,
    words: ['lawn mowing', 'yard work', 'gardening service', 'landscaping', 'hedge trimming'],
  },
  {
    category: 'household',
    isService: true,
    words: ['house cleaning', 'cleaning service', 'housekeeping', 'window cleaning', 'babysitting'],
  },
  {
    category: 'skilled trade',
    isService: true,
    words: ['plumbing', 'plumber', 'electrician', 'carpentry', 'handyman', 'home repairs'],
  },
  { category: 'automotive', isService: true, words: ['car repair', 'oil change', 'car wash', 'detailing'] },
  {
    category: 'computer',
    isService: true,
    words: ['computer repair', 'it support', 'tech support', 'web design', 'laptop repair'],
  },
  { category: 'creative', isService: true, words: ['graphic design', 'logo design', 'portrait photography'] },
  {
    category: 'event',
    isService: true,
    words: ['catering', 'party planning', 'dj services', 'face painting'],
  },
  { category: 'health/well', isService: true, words: ['massage', 'personal trainer', 'personal training'] },
  { category: 'beauty', isService: true, words: ['haircut', 'hair cut', 'manicure', 'makeup artist'] },
  {
    category: 'write/ed/tran',
    isService: true,
    words: ['translation', 'proofreading', 'resume writing', 'copy editing'],
  },
  { category: 'cycle', isService: true, words: ['bike repair', 'bicycle repair', 'bike tune up'] },
  { category: 'lessons', isService: true, words: ['lessons', 'tutoring', 'tutor', 'classes'] },
  { category: 'pet', isService: true, words: ['dog walking', 'pet sitting', 'dog grooming'] },
  { category: 'labor/move', isService: true, words: ['moving help', 'removals', 'man with a van'] },
];

/**
 * Words the category's own name gives (a label reading "Furniture" or "Books"): one point each, so
 * any rule word or brand in the text weighs as much.
 */
const NAME_WORDS: Array<{ category: GoodsCategory; words: string[] }> = [
  { category: 'books', words: ['book'] },
  { category: 'tools', words: ['tool', 'power tool'] },
  { category: 'electronics', words: ['electronics'] },
  { category: 'computers', words: ['computer', 'tablet'] },
  { category: 'toys+games', words: ['toys', 'doll', 'action figure', 'teddy bear', 'stuffed animal'] },
  {
    category: 'furniture',
    words: ['furniture', 'dining table', 'coffee table', 'side table', 'nightstand', 'armchair'],
  },
  { category: 'jewelry', words: ['jewelry', 'jewellery', 'pendant'] },
  { category: 'appliances', words: ['appliance'] },
  { category: 'sporting', words: ['sports', 'ski', 'snowboard', 'kettlebell', 'treadmill', 'hockey'] },
  { category: 'clothes+acc', words: ['coat', 'boots', 'scarf', 'handbag', 'purse'] },
  { category: 'farm+garden', words: ['rake', 'shovel', 'wheelbarrow', 'lawn mower', 'trowel', 'pruners'] },
  { category: 'cds/dvd/vhs', words: ['vinyl record', 'cassette'] },
];
for (const { category, words } of NAME_WORDS) {
  const rule = RULES.find((candidate) => candidate.category === category && !candidate.isService);
  if (rule) rule.words.push(...words);
}

/** The phrase as whole words in `words` (normalizeWords), its last word also in the plural. */
function hasPhrase(words: string, phrase: string): boolean {
  return (
    words.includes(` ${phrase} `) ||
    (!phrase.endsWith('s') && (words.includes(` ${phrase}s `) || words.includes(` ${phrase}es `)))
  );
}

/** Lower case, punctuation to spaces, single spaces, padded so whole words match with ` word `. */
export function normalizeWords(text: string): string {
  return ` ${text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()} `;
}

/**
 * The category the text points to, or null when nothing does or two categories tie. An ISBN barcode
 * is the strongest evidence of a book; otherwise brands (2 points) and words (1 point) are counted.
 */
export function categorize(text: string, options: { isbn?: boolean } = {}): CategoryGuess | null {
  if (options.isbn) return { category: 'books', isService: false, confidence: 0.95 };
  const words = normalizeWords(text);
  if (words.trim() === '') return null;
  const scored = RULES.map((rule) => {
    let score = 0;
    for (const brand of rule.brands ?? []) if (words.includes(` ${brand} `)) score += 2;
    // "Guitar lessons" advertises lessons, not a guitar: service words outweigh the goods they name.
    const weight = rule.isService ? 2 : 1;
    for (const word of rule.words) if (hasPhrase(words, word)) score += weight;
    return { rule, score };
  })
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score);
  const [best, second] = scored;
  if (!best || (second && second.score === best.score)) return null;
  const margin = best.score - (second?.score ?? 0);
  return {
    category: best.rule.category,
    isService: best.rule.isService ?? false,
    confidence: Math.min(0.85, 0.4 + 0.15 * best.score + 0.05 * margin),
  };
}
