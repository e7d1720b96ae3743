/**
 * Content moderation (docs/decisions/006-moderation.md): refuses wording that breaks the Terms (spec
 * section 1) in wants and items now, and in messages and profile text later. Every refusal message says
 * "not appropriate" (docs/product.md, "Moderation").
 *
 * How it matches. Each text is read in two forms, built once per call with precompiled regexes:
 * - the *plain* form: NFKD, combining marks stripped, lower case, zero-width characters removed and
 *   look-alike letters (Cyrillic, Greek, ß, ø...) mapped to Latin. Phone numbers, e-mail addresses,
 *   links and handles are found here, where digits and punctuation survive.
 * - the *word* form: the plain form with apostrophes dropped, any other punctuation turned into a space,
 *   runs of three or more single characters joined ("w e e d", "p.o.r.n", "s-e-x"), then leetspeak read
 *   as letters inside words that contain a letter (w33d, c0caine, s3x, pr0n, a$$; "420" and "2015" stay
 *   numbers). Known innocent phrases (the allow-list) are then blanked out.
 * Terms are matched on the word form at word boundaries, never as bare substrings (so Scunthorpe,
 * Sussex, cockpit, class and assess pass). Every letter of a term also matches a run of that letter
 * (weeeed, fuuuuck) and "l" also matches "i" (pi11s, a1cohol).
 *
 * Rules decided here (and recorded in the decision):
 * - Alcohol: the drink is refused (beer, wine, spirits, a bottle of whisky); equipment, glassware, decor
 *   and collectibles are allowed (wine rack, cocktail shaker, shot glasses, beer brewing kit, bottle
 *   opener, beer steins, empty bottles for crafts), as are non-alcoholic drinks (root beer, ginger beer,
 *   alcohol-free wine) and non-drink alcohol (rubbing alcohol, alcohol markers, alcohol stove).
 * - Cannabis: cannabis, THC and CBD products are refused whatever their label ("cannabis-free CBD"
 *   included); hemp rope, hemp fabric and hemp seed food are allowed. "Weed" is refused, except in
 *   gardening (weed eater, weed barrier, "weed your garden"); "pot" only in drug phrases, so pots and
 *   pans and flower pots pass; "coke" only in drug phrases, so a vintage Coke bottle passes.
 * - Contact details: phone numbers, e-mail addresses, social-media handles and profile links, and
 *   invitations to talk off the platform ("text me", "add me on Snapchat") are refused in listings and
 *   wants even for trading, because Barterhood has its own messages. Other links are allowed. In a
 *   barter's conversation they are allowed (`allowContactDetails`): there two members arrange a
 *   trade, which the Terms (section 4) allow contact details for (ADR 062).
 * - Dating: personal-ad phrasing is refused ("looking for a girlfriend", "single male seeks", "hookup",
 *   "NSA fun", "sugar daddy"); the word "dating" alone is not, so a dresser dating back to 1920 and
 *   dating-app development lessons pass.
 * - Explicit: sexual services, pornography, nudes and sex toys are refused; "sexy" and "nude" as a
 *   colour are allowed.
 */
import { PRODUCT_NAME } from '#common/constants.ts';
import { ERROR_CODES } from '#common/error-codes.ts';
import { badRequest } from '../errors';

export const MODERATION_REASONS = [
  'dating',
  'explicit',
  'drugs-alcohol',
  'contact-details',
  'profanity',
] as const;

export type ModerationReason = (typeof MODERATION_REASONS)[number];

export interface ModerationRefusal {
  allowed: false;
  reason: ModerationReason;
  message: string;
  /** Which of the texts checked broke the Terms (its position in the arguments). */
  index?: number;
}

export type ModerationResult = { allowed: true } | ModerationRefusal;

export interface ModerationOptions {
  /** A barter's conversation: contact details may be shared to arrange the trade (ADR 062). */
  allowContactDetails?: boolean;
}

const EXPLANATIONS: Record<ModerationReason, string> = {
  dating: 'dating or personal ads are not allowed.',
  explicit: 'explicit or sexual material is not allowed.',
  'drugs-alcohol': 'drugs and alcohol cannot be offered or requested.',
  'contact-details':
    "please keep phone numbers, e-mail addresses and social media out of it; share contact details in the barter's conversation.",
  profanity: 'please leave out offensive language.',
};

const REFUSALS: Record<ModerationReason, ModerationRefusal> = Object.fromEntries(
  MODERATION_REASONS.map((reason) => [
    reason,
    {
      allowed: false,
      reason,
      message: `This wording is not appropriate for ${PRODUCT_NAME}: ${EXPLANATIONS[reason]}`,
    },
  ]),
) as Record<ModerationReason, ModerationRefusal>;

const ALLOWED: ModerationResult = { allowed: true };

// ---------------------------------------------------------------------------------------------------
// Normalisation

/** Letters that look like Latin ones (after lower-casing and NFKD), mapped to the Latin letter. */
const LOOK_ALIKES: Record<string, string> = {
  // Cyrillic
  а: 'a',
  в: 'b',
  е: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  п: 'n',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  і: 'i',
  ј: 'j',
  ԁ: 'd',
  һ: 'h',
  ԛ: 'q',
  ԝ: 'w',
  ӏ: 'l',
  // Greek
  α: 'a',
  β: 'b',
  γ: 'y',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  μ: 'u',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ω: 'w',
  // Latin letters NFKD leaves alone
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  ı: 'i',
  ȷ: 'j',
  ƒ: 'f',
  ɡ: 'g',
};
const LOOK_ALIKE = new RegExp(`[${Object.keys(LOOK_ALIKES).join('')}]`, 'g');
const MARKS = /\p{M}+/gu;
const INVISIBLE = /[\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufeff]/g;
const APOSTROPHES = /['\u2018\u2019\u02bc`]/g;
/** Two or more spaces separate words even when the letters are spaced out: "S U G A R   D A D D Y". */
const WIDE_GAP = /\s{2,}/g;
const NOT_TOKEN = /[^a-z0-9@$!|\t]+/g;
/** Three or more single characters separated by single spaces: "w e e d", "p o r n". */
const SPACED_OUT = /(?<![a-z0-9@$!|])[a-z0-9@$!|](?: [a-z0-9@$!|]){2,}(?![a-z0-9@$!|])/g;
const TOKEN = /[a-z0-9@$!|]+/g;
const HAS_LETTER = /[a-z]/;
const NON_DIGITS = /\D+/g;
const TRAILING_MARKS = /[!|]+$/;
const LEET_CHARS = /[0134578@$!|]/g;
const LEET: Record<string, string> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '8': 'b',
  '@': 'a',
  $: 's',
  '!': 'i',
  '|': 'i',
};
const GAPS = /[\t ]+/g;
/** Runs of four or more of a letter become three: terms match any run, and long runs cost backtracking. */
const LONG_RUN = /([a-z])\1{3,}/g;

/** The plain form: NFKD, no marks, lower case, no invisible characters, look-alikes as Latin letters. */
export function plainForm(text: string): string {
  return text
    .normalize('NFKD')
    .toLowerCase()
    .replace(MARKS, '')
    .replace(INVISIBLE, '')
    .replace(LOOK_ALIKE, (letter) => LOOK_ALIKES[letter] ?? letter);
}

function countLetters(run: string): number {
  let letters = 0;
  for (let i = 0; i < run.length; i++) {
    const code = run.charCodeAt(i);
    if (code >= 97 && code <= 122) letters++;
  }
  return letters;
}

function joinSpacedOut(run: string): string {
  return countLetters(run) >= 2 ? run.replaceAll(' ', '') : run;
}

function readLeet(token: string): string {
  if (!HAS_LETTER.test(token)) return token.replace(NON_DIGITS, '');
  return token.replace(TRAILING_MARKS, '').replace(LEET_CHARS, (char) => LEET[char] ?? char);
}

/** The word form: letters, digits and single spaces, with spacing and leetspeak undone. */
export function wordForm(plain: string): string {
  return plain
    .replace(APOSTROPHES, '')
    .replace(WIDE_GAP, '\t')
    .replace(NOT_TOKEN, ' ')
    .replace(SPACED_OUT, joinSpacedOut)
    .replace(TOKEN, readLeet)
    .replace(LONG_RUN, '$1$1$1')
    .replace(GAPS, ' ')
    .trim();
}

// ---------------------------------------------------------------------------------------------------
// Term compiler

/**
 * Terms are small regular expressions over the word form. Every bare letter becomes "one or more of
 * that letter" (so weeeed matches weed) unless a quantifier follows it; "l" also accepts "i" (leetspeak
 * 1 and | read as i) and "w" also accepts "vv"; "(" opens a non-capturing group; [classes] and escapes are copied as they are.
 */
function compileTerm(source: string): string {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const char = source[i] as string;
    if (char === '\\') {
      out += char + (source[i + 1] ?? '');
      i++;
    } else if (char === '[') {
      const end = source.indexOf(']', i);
      out += source.slice(i, end + 1);
      i = end;
    } else if (char === '(' && source[i + 1] !== '?') {
      out += '(?:';
    } else if (char >= 'a' && char <= 'z') {
      const letter = char === 'l' ? '[li]' : char === 'w' ? '(?:w|vv)' : char;
      let run = 1;
      while (source[i + run] === char) run++;
      const next = source[i + run];
      if (next === '?' || next === '*' || next === '+' || next === '{') {
        out += letter.repeat(run);
      } else {
        // "ee" becomes e{2,}, not e+e+, which would backtrack quadratically on a long run of e.
        out += run === 1 ? `${letter}+` : `${letter}{${run},}`;
      }
      i += run - 1;
    } else {
      out += char;
    }
  }
  return out;
}

/** V8 stops optimising a regex whose source passes 20 KB (ten times slower): keep each well below. */
const MAX_REGEX_SOURCE = 12_000;

/** Regexes matching any of `terms` as whole words, as few as the size limit allows. */
function wordsRegexes(terms: readonly string[], flags = ''): RegExp[] {
  const groups: string[][] = [[]];
  let size = 0;
  for (const term of terms) {
    const compiled = compileTerm(term);
    if (size + compiled.length > MAX_REGEX_SOURCE && size > 0) {
      groups.push([]);
      size = 0;
    }
    groups.at(-1)?.push(compiled);
    size += compiled.length + 1;
  }
  return groups.map((group) => new RegExp(`(?<![a-z0-9])(?:${group.join('|')})(?![a-z0-9])`, flags));
}

// ---------------------------------------------------------------------------------------------------
// Allow-list: innocent phrases blanked out of the word form before any term is looked for.

const DRINKS =
  '(beers?|wines?|whiske?ys?|whiskies|vodka|bourbon|rum|gin|tequila|brandy|cognac|champagne|prosecco|liquor|liqueur|scotch|moonshine|cocktail|martini|margarita|sake|bud light|coors light|miller lite|jack daniels?|jim beam|johnnie walker|smirnoff|bacardi|hennessy|jagermeister|budweiser|coors|guinness|heineken|ciders?|hard ciders?|meads?|absinthe)';
const DRINK_GEAR =
  '(racks?|glass|glasses|glassware|goblets?|flutes?|cups?|mugs?|steins?|tumblers?|snifters?|decanters?|carafes?|openers?|corkscrews?|stoppers?|aerators?|pourers?|chillers?|coolers?|fridges?|refrigerators?|cellars?|cabinets?|carts?|keys?|buckets?|tubs?|making|maker|makers|brewing|brew|kits?|barrels?|casks?|crates?|signs?|neon|mirrors?|tins?|koozies?|coozies?|coasters?|trays?|taps?|towers?|dispensers?|pong|tables?|stools?|holders?|charms?|totes?|bags?|labels?|corks?|caps?|stains?|thermometers?|hydrometers?|fermenters?|fermenting|carboys?|airlocks?|bottling|cappers?|filters?|press|presses|crushers?|yeast|stones?|lovers?|accessories|sets?|books?|guides?|journals?|posters?|memorabilia|bread|batter|vinegar|sauce|colou?r|colou?red|red|burgundy|country|licen[cs]es?|licen[cs]ing|permits?|spoons?|fountains?)';
const CONTAINERS = '(bottles?|cans?|kegs?|barrels?|growlers?|crates?|jugs?|boxes)';
const BOTTLE_GEAR =
  '(openers?|caps?|lamps?|lights?|crafts?|cutters?|cutting kits?|trees?|chandeliers?|holders?|koozies?|coozies?|racks?|chicken|chicken roasters?)';

const GARDEN_WORK =
  '(mow|mowing|prune|pruning|rake|raking|mulch|mulching|water|watering|plant|planting|dig|digging|hoe|hoeing|edge|edging|trim|trimming|clean|cleanup|tidy|feed|seed|seeding|fertili[sz]e|deadhead|hedges?|hedging|sweep|sow|sowing)';

const ALLOW_TERMS: readonly string[] = [
  // alcohol equipment, decor and soft drinks
  `${DRINKS} ${DRINK_GEAR}`,
  `${DRINKS} (and|n) (tonic|soda|cola|coke|ginger ale|lime) ${DRINK_GEAR}`,
  '(wine|sip|beer) (and|n) (paint|painting|canvas|design)',
  `${DRINKS} (bottle|bottles|can|cans) ${BOTTLE_GEAR}`,
  `${DRINKS} cans? (collection|collections|collectibles?)`,
  `empty (${DRINKS} )?${CONTAINERS}`,
  '(root|ginger|birch|butter) ?beers?|ginger ales?|cream sodas?',
  `(non|no|zero|low) ?alcoholic( ${DRINKS})?|(alcohol|alc) ?free( ${DRINKS})?|(non|no|zero|low) alcohol( ${DRINKS})?`,
  '(rubbing|isopropyl|isopropanol|denatured|ethyl|medical|surgical|cleaning|methylated|ipa) alcohol',
  'alcohol (wipes?|pads?|swabs?|inks?|markers?|stoves?|burners?|lamps?|based|levels?|testers?|breathalyzers?|breathalysers?|prep|gel|sanitizers?|sanitisers?|thermometers?|proof|resistant|dispensers?)',
  'cotton gins?|gin rummy|gin poles?|bay rum|rum ?runners?|rum (raisin|cakes?|balls?|extract|flavou?r|flavou?red)',
  'brandy melville|cognac (colou?r|colou?red|leather|suede|brown|tan|boots?)',
  'champagne (colou?r|colou?red|gold|pink|beige|silver|toast)|wine (red|colou?red)',
  'bourbon (vanilla|biscuits?|street|chicken|glaze)|vodka (pasta )?sauce',
  // gardening weeds, pots and pans, edibles in the garden
  'weed (whackers?|wackers?|eaters?|killers?|barriers?|trimmers?|control|pullers?|pulling|fabric|blocks?|block fabric|cutters?|burners?|torch|torches|preventers?|preventer|free|removal|removers?|mats?|membrane|and feed|n feed|b gon|be gone|stop|spray|sprayers?|wand|tools?|stoppers?|whips?|wrench|out)',
  'weed(ed|ing)? out',
  '(pull|pulling|pulled|garden|lawn|yard|pond|sea|dandelion|invasive|noxious|tumble|duck|milk|chick|butterfly) weed',
  `${GARDEN_WORK}( and| n| up)? weed`,
  `weed( and| n)? ${GARDEN_WORK}`,
  'weed (the |your |my |our |a |flower |garden |vegetable |veggie |raised |front |back |side )*(beds?|gardens?|lawns?|yards?|patios?|driveways?|plots?|borders?|paths?|walkways?|areas?|allotments?)',
  'pots? (and|n|or) (pans?|lids?)|pot (holders?|lids?|racks?|roast|pies?|luck|lucks|hangers?|stands?|scrubbers?|feet|plants?|sets?|belly)',
  '(grow|growing|garden|container|backyard|perennial|landscape|landscaping) edibles|edibles (garden|gardening|landscaping|and ornamentals)',
  '(cannabis|marijuana|thc|cbd|drug|drugs|alcohol|smoke|weed) free',
  '(in|near|to|from|around|of) the cbd|cbd (offices?|apartments?|locations?|area|parking|car park|hotels?|views|workers|fringe)',
  'lsd (diff|diffs|differential|rear|rear end|unit|carrier|center|centre|gears?)|(limited slip|helical|torsen|clutch type|viscous|welded|[0-9] way|kaaz|cusco|tomei|quaife|wavetrac|os giken) lsd',
  '(lactuca|avena|oryza|castanea|medicago|pastinaca|eruca|nigella|lavandula|vicia|pisum|linum|coriandrum|cannabis) sativa',
  '(azadirachta|mangifera|tamarindus|lagerstroemia|kalanchoe|buddleja|ruellia|centella) indica',
  'peyote (stitch|stitched|stitching|beading|beadwork)|agony and the ecstasy',
  // dating words in ordinary listings
  'dates? (for|of) (delivery|pickup|pick up|collection|shipping|moving|the move|install|installation|the job|the work|service)',
  'date (palms?|trees?|stamps?|books?|planners?|codes?|ranges?|night (babysit[a-z]*|sitters?|childcare|ideas?|box|boxes|kits?|games?|jar))',
  '(girlfriend|boyfriend|wife|husband|gf|bf) (gifts?|presents?|birthday|anniversary|jeans|shirts?|cardigans?|sweaters?|fit|cut|blazers?|shorts|tees?|pillows?|material)',
  'love ?seats?|husbands? for hire|rent a husband',
  'romance (novels?|books?|paperbacks?|fiction|series|titles|collection|authors?|languages?|dvds?|movies?)',
  '(man|men|guy|guys) with (a |an )?(truck|van|pickup|trailer|tools)',
  'one night stand (oak|wood|wooden|table|tables|with|in|to match|drawer|drawers|furniture|white|black|walnut|pine|cherry|maple|teak|mid century|vintage|antique)',
  'sugar baby (watermelons?|melons?|seeds?|pumpkins?)',
  '(rv|camper|trailer|caravan|water|sewer|electric|electrical|power|cable|gas|dryer|washer|hose|shore|full|utility|utilities|plumbing|propane|tv|sink|faucet|ice maker|fridge|refrigerator|stereo|speaker|amp) hook ?ups?',
  'hook ?ups? (kits?|adapters?|cables?|hoses?|wires?|wiring|lines?|for (my |your |the |a |an )?(rv|camper|trailer|washer|dryer|ice maker|fridge|tv|boat|sink))',
  'all (the )?hook ?ups',
  // explicit words in ordinary listings
  'sex and the city|sex pistols|same sex|opposite sex|sex (education|ed|discrimination|equality|ratio)|(xxx|xx|x|2x|3x|4x) ?(large|l|lg)',
  'escort (vehicle |car )?services? for (oversize|oversized|wide|heavy)|ford escorts?|escort (radar|detectors?|passport|max|redline|ix|wagon|zx2|gt|lx|se|parts?|vehicles?|cars?|van|rs|cosworth|xr3i?|mk ?[0-9]+|mirrors?|lights?|headlights?|tail ?lights?|doors?|bumpers?|engines?|wheels?|hubcaps?|seats?|hood|grille|radiators?|alternators?|starters?|manuals?|haynes)',
  'body rubs? (balms?|creams?|lotions?|salves?|liniments?|gels?)',
  '(pilot|police|security|oversize|oversized|wide load|funeral|motorcycle|military|armed) (car |vehicle |cars |vehicles )?escorts?',
  '(zuni|navajo|stone|carved|animal|bear|inuit) fetish(es)?|fetish (carvings?|necklaces?|bears?|figures?)',
  'nudes? (palettes?|eyeshadows?|lipsticks?|shades?|collection|colou?rs?|tones?|polish)',
  'horny toads?|marry me (dvd|movie|blu ?ray|chicken|signs?|banners?|neon|lights?|letters?)',
  '(blue|great|coal|marsh|willow|crested|long tailed|bearded) tits',
  // profanity and slurs that are also ordinary words
  'bastard (files?|cut|mill|swords?)|never mind the bollocks',
  'pussy ?(willows?|cats?|foot|footing)',
  'van dykes?|(sea|river|flood|dutch) dykes?',
  'maine coons?|coon ?(hounds?|dogs?|skin|hunting|hunters?|lights?|calls?|traps?|cages?)',
  'chink in (the|his|her|my|your|their) armou?r|spick? (and|n) span',
  '(flame|fire) retard|retard(ed|s)? (the )?(ignition |spark )?timing|(ignition|spark|timing) retard(ed)?',
  '(rebuilt|used|manual|auto|automatic|[3-6] speed|th350|th400|4l60e?|4l80e?|700r4|muncie|standard|stick|truck|car|jeep) tranny|tranny (fluid|cooler|pan|mount|jack|rebuild|swap|lines?|filter|for|from|out of|shifts?|slips?|parts?)',
  // contact words that point back into the app
  '(on|via|through|thru|in) (here|the app|this app|barterhood|the site|this site|app|chat|messages|this page)',
];

const ALLOW = wordsRegexes(ALLOW_TERMS, 'g');

// ---------------------------------------------------------------------------------------------------
// Terms per reason (word form)

const SEEK =
  '(looking (for|4)|look for|searching (for|4)|search for|seeking|seek|seeks|in search of|iso|lf|lfm|want|wants|wanting|need|needs|wanna find|hoping to find|hoping to meet|want to meet|wanna meet|to meet)';
const ADJECTIVES =
  '(a |an |my |some |new |nice |cute |hot |sexy |single |lonely |older |younger |mature |discreet |sweet |local |real |loving |caring |special |attractive |generous |rich |wealthy )*';
const PARTNERS =
  '(girlfriends?|boyfriends?|gf|bf|wife|husband|hubby|lovers?|soul ?mates?|fwb|friends? with benefits|sugar (daddy|daddies|mommy|mommies|momma|mama|baby|babies)|romance|romantic partner|love interest|life partner|date|hook ?ups?|flings?|affair|one night stand|special someone|someone special|nsa)';
const PEOPLE =
  '(woman|women|lady|ladies|girl|girls|guy|guys|man|men|female|females|male|males|gentleman|gentlemen|couple|partner|someone|somebody|person|friend|companion)';
const LONELY =
  '(single|lonely|lonesome|horny|married|divorced|widowed|discreet|attractive|handsome|pretty|sexy|hot|bi|bisexual|gay|straight|curious|bi curious|mature|cute|fit|tall)';
const BACKGROUND =
  '(white |black |asian |latino |latina |hispanic |christian |jewish |professional |older |younger |mature |retired |local )?';
const GENDERS = '(male|female|man|woman|guy|girl|gal|lady|gentleman|swm|sbm|dwm|mwm|bbw|cougar|milf)';

const DATING_TERMS: readonly string[] = [
  `${SEEK} ${ADJECTIVES}${PARTNERS}`,
  `${SEEK} (a |an |some )?(hot|sexy|cute|horny|lonely|pretty|beautiful|attractive|handsome) (girls?|guys?|women|woman|ladies|lady|men|man|females?|males?|milfs?|cougars?|babes?|chicks?|studs?)`,
  `${SEEK} ${ADJECTIVES}${PEOPLE} (for|to) (dating|date|romance|love|a relationship|relationship|companionship|intimacy|cuddling|cuddle|sex|marry|settle down with|share my bed|spoil me|discreet fun|casual fun|adult fun|nsa fun|nsa|fwb|hook ?ups?)`,
  `(looking|searching|hoping) (for|to find) (true |real |my )?love`,
  `${LONELY} ${BACKGROUND}${GENDERS} seeks`,
  '(swm|sbm|dwm|mwm|swf|sbf|dwf|mwf|bbw) (seeks|seeking|looking for|lf|iso)',
  `${LONELY} ${BACKGROUND}${GENDERS} (seeking|looking for|lf|iso|searching for|wants|wanting|needs) (a |an |my |some |nice |fun |discreet |younger |older |single |generous )*(female|male|woman|man|lady|guy|girl|gentleman|partner|date|relationship|romance|fun|fwb|sugar daddy|sugar baby)`,
  'hookups?',
  'hook ?ups? (tonight|tonite|now|today|this weekend)',
  '(casual|discreet|quick|anonymous|nsa|no strings) hook ?ups?',
  'hook up with (me|someone|a (girl|guy|woman|man|lady))',
  '(wanna|want to|looking to|down to|dtf and) hook up',
  'nsa (fun|relationship|relations|meets?|meetups?|hook ?ups?|encounters?|sex|only|arrangement|dating|discreet|flings?|friendship)',
  'no strings attached (fun|relationship|sex|hook ?ups?|dating|arrangement|encounters?|flings?|meetups?)',
  'friends with benefits|fwb',
  'sugar ?(daddy|daddies|daddys|mommy|mommies|momma|mama|baby|babies)',
  'personal ads?|lonely hearts|mail order brides?|marry me|date me|wanna date|want to date (me|you)|lets date|go on a date with me|date with me',
  'be my (girlfriend|boyfriend|lover|gf|bf|wife|husband)',
  '(casual|discreet|adult|speed) dating|dating (partner|buddy|someone)',
  '(hot|local|lonely|horny|sexy|available|real) singles|singles (near|in|around) (you|your area|my area|the area)|meet (local )?singles',
  'cuddle (buddy|buddies|partners?)|professional cuddler',
  '(discreet|secret|extramarital|married) affairs?|(have|having) an affair',
  'mutually beneficial (arrangement|relationship)',
  '(romantic|intimate) (encounters?|partner|relationship|companionship|evening with me|dinner with me|getaway with me)',
  'discreet (fun|encounters?|relationship|meetings?|meetups?|arrangement|friendship|companionship)',
];

const EXPLICIT_TERMS: readonly string[] = [
  'porn[a-z]*',
  'pron',
  'xxx',
  'nsfw',
  'nudes|nudez|noodz|noods',
  'nude (pics?|photos?|pictures?|videos?|vids?|selfies?|modell?ing|content|shots?|cam|webcam|shoots?)',
  'naked (pics?|photos?|pictures?|videos?|vids?|selfies?|cam|girls?|women|men|guys?|content)',
  'topless (pics?|photos?|girls?|dancers?|dancing|maids?|waitress|service)',
  'sex|sexting|sexts?|sexcam|sex ?toys?|sex ?tapes?',
  'sexual (services?|favou?rs?|encounters?|content|massage|acts?|pleasure|fun|experience)',
  'sexy (pics?|photos?|pictures?|selfies?|videos?|vids?|cam|chat|time|fun|singles|girls?|women|webcam)',
  'onlyfans|only fans (content|account|page|link|subscriptions?|sub|subs)|fansly',
  'cam ?girls?|cam ?boys?|cam (shows?|models?|sex)|webcam (girls?|models?|shows?|sex|strip)',
  'strip ?tease|strip ?teasers?|strip (club|clubs|shows?|dance|dancers?)',
  '(exotic|male|female|private) (strippers?|dancers?)|strippers? (for hire|for parties|for your|party|parties|services?|shows?)',
  'lap ?dances?|blow ?jobs?|handjobs?',
  'happy ending massages?|massages? with (a )?happy endings?|happy endings? (massages?|included|available)',
  'erotic|erotica|eroticism',
  'sensual (massages?|services?|encounters?|fun|time|bodywork)|tantric (massages?|sessions?)|nuru|body ?rubs?',
  'fetish(es)?|bdsm|bondage|dominatrix',
  'dildos?|butt ?plugs?|fleshlights?',
  'adult (content|videos?|vids?|movies?|films?|dvds?|entertainment|services?|toys?|magazines?|websites?|sites?|chat|cams?|store|shop)',
  'prostitut[a-z]*|call ?girls?|escorts?|escorting|gfe',
  'milfs?|horny|dick ?pics?|cock ?pics?',
  'boobs|boobies|tits|titties|titty',
  'cumshots?|cum (shots?|facials?|swap|swallow|dump|inside)',
  'orgy|orgies|threesomes?|swingers? (club|clubs|party|parties|couples?|lifestyle)|hentai',
];

const DRUG_TERMS: readonly string[] = [
  // cannabis
  'weed',
  'marijuana|marihuana|cannabis|thc|cbd|hashish|hash oil|kush|sativas?|indicas?|ganja',
  'pot (brownies?|cookies?|gummies|edibles|candy|candies|chocolates?|seeds)',
  '(smoke|smoking|smoked|toke|toking|sell|selling|buy|buying) (some )?(pot|dope|ganja|chronic)',
  '(bag|baggie|ounce|oz|gram|grams|eighth|quarter|half ounce|zip|dime bag) of (pot|weed|bud|dope|ganja|chronic|kush)',
  'dime bags?|nickel bags?|pre ?rolls?|spliffs?|blunts|blunt wraps?|rolled joints?|joints? (of weed|rolled)',
  'bongs?|dab (pens?|rigs?|carts?|wax)|vape (carts?|cartridges?)',
  'delta ?(8|9|10) (thc|gummies|carts?|vapes?|flower|edibles|distillate)|delta8|hhc|edibles',
  '420 (friendly|fun|smoke|smoking)',
  // other drugs
  'cocaine|cocain|crackhead|crack (cocaine|rocks?|pipes?|vials?|heads?|house)',
  '(gram|grams|eight ball|eightball|8 ball|8ball|baggie|bag|bags|line|lines|bump|bumps|key|keys|kilo|kilos|brick|ounce|oz|zip) of (coke|blow|cocaine)',
  '(eight ball|eightball|8 ball|8ball|bumps?|lines|kilos?) (coke|blow)',
  '(pure|uncut|colombian|peruvian|bolivian|fish ?scale|flake) (coke|cocaine|blow)',
  '(snort|snorting|sniff|sniffing) (some )?(coke|blow|lines)|doing (some )?(coke|blow)',
  'coke (dealer|plug|lines?|bumps?|head|heads|baggies?|and (weed|molly|pills|meth|xanax))',
  'meth|crystal meth|methamphetamines?|amphetamines?|heroin|fentanyl|fent (pills?|patches)',
  'opiates?|opioids? (pills?|for sale)|oxycodone|oxycontin|oxycotin|oxys|oxy (pills?|30s?|80s?|tabs?)',
  'percocets?|percs|perc (pills?|30s?|10s?)|vicodin|hydrocodone|codeine|xanax|xannies|xanny|xans',
  'valium|klonopin|adderall|ritalin|tramadol|morphine|dilaudid|suboxone|subutex|methadone|ketamine',
  'lsd|acid (tabs?|blotters?|sheets?|strips?)|(tabs|sheet|sheets|hits|blotter) of acid|dmt|mdma|ecstasy',
  'shrooms|magic mushrooms?|psilocybin|psilocin|mescaline|peyote|kratom|angel dust|ghb|roofies|rohypnol',
  'purple drank|sizzurp|anabolic steroids?|steroids for sale',
  '(pain|prescription|script|rx|sleeping|party|happy|perc|oxy|xanax) pills|pills? for sale|(sell|selling|got) pills|pills (cheap|available|in stock)',
  'drugs? (for sale|dealers?|deals?|plug|connect)|(recreational|illegal|street|hard|party|illicit) drugs|narcotics',
  // alcohol
  'beers?|wines?|vodkas?|whiske?ys?|whiskies|bourbons?|scotch whiske?y|(bottles?|case|fifth|dram) of scotch|single malt',
  'tequilas?|mezcal|rum|gin|brandy|cognac|champagnes?|prosecco|moonshine|liquors?|liqueurs?|booze|schnapps|absinthe|sangria',
  'alcohol|alcoholic (drinks?|beverages?)|hard liquor|(hard|spiked) (seltzers?|lemonades?|ciders?|iced teas?|teas?|sodas?)',
  'jell?o shots?|jelly shots?|malt liquor',
  'bud light|coors light|miller lite|natural light|smirnoff|bacardi|hennessy|jack daniels?|jim beam|johnnie walker|jagermeister',
];

const SOCIAL =
  '(snapchat|insta|instagram|ig|whatsapp|whats app|kik|telegram|fb|facebook|messenger|tiktok|tik tok|twitter|discord|viber|wechat|skype|tinder|hinge|bumble|signal|snap|sc|wa|tg|threads|linkedin)';
const SOCIAL_NAMES =
  '(snapchat|insta|instagram|ig|whatsapp|kik|telegram|fb|facebook|tiktok|twitter|discord|wechat|skype|linkedin)';
const MAIL_PROVIDERS =
  '(gmail|googlemail|hotmail|yahoo|ymail|outlook|aol|icloud|protonmail|proton|gmx|yandex|comcast|live|msn)';

const CONTACT_TERMS: readonly string[] = [
  `(add|follow|find|hit|hmu|message|msg|dm|pm|contact|reach|text|txt|chat|call|friend|look|ping|catch) (me|us)( up)? (on|at|via|thru|through|in) ${SOCIAL}`,
  `hmu (on|at|via) ${SOCIAL}`,
  `(my|our) ${SOCIAL_NAMES}( page| account| handle| profile| username| user name| id| name| number| is)?`,
  '(my|our) (snap|signal) (is|handle|username|name|id)',
  '(snapchat|insta|instagram|kik|telegram|whatsapp|discord|wechat|skype|viber) (me|handle|username|user name|id|number)',
  '(text|txt|call|phone|ring|email|e mail|mail|whatsapp|message|msg|facetime|dm|pm|contact|reach) (me|us) (at|on|via|thru|through)(?! (the|a|an|our|this|any|weekends?|weekdays?|noon|night|nights|evenings?|mornings?|lunch)(?![a-z0-9]))',
  'text me|txt me|facetime me|email me|e mail me|call me (anytime|any time|after|before|between|now|today|tonight|asap)',
  '(give|send|shoot|drop) me an? (call|ring|text|buzz|email|e mail)',
  '(call|text|txt) (or |and |n |slash )?(call|text|txt)',
  '(my|our) (cell|cell phone|phone|mobile|home phone|work phone|landline|contact|telephone) (number|no|num|nr)',
  '(my|our) (e mail|email) (address|addy|is|at)|(my|our) (digits|contact info|contact information|contact details)|(my|our) number is',
  '(gimme|send|give|text|dm|pm|message|leave) (me )?(your|ur|yr) (number|phone|phone number|cell|cell number|email|e mail|digits|snap|snapchat|insta|ig|whatsapp|contact)',
  `${MAIL_PROVIDERS} (dot )?(com|net|co uk|uk|ch|ru)`,
  '[a-z0-9]+(gmail|googlemail|hotmail|ymail|protonmail)[a-z0-9]*|(gmail|googlemail|hotmail|ymail|protonmail|yahoo)(com|net|co)[a-z0-9]*',
  'at (gmail|hotmail|yahoo|outlook|aol|icloud|protonmail|gmx|yandex|comcast)',
  '(facebook|fb|instagram|instagr|tiktok|twitter|snapchat|linkedin|telegram|whatsapp|linktr|linktree|onlyfans|kik|discord) (dot )?(com|me|am|ee|gg|net)',
];

const PROFANITY_TERMS: readonly string[] = [
  '[a-z]*fuck[a-z]*',
  'fck(ing|in|er|ers|ed|s)?|fuk(ing|in|er|ers|ed|s)?|fukk[a-z]*|phuc?k[a-z]*|fvck[a-z]*|fuq|stfu|gtfo|mofo',
  'shit(s|ty|tier|tiest|head|heads|hole|holes|bag|bags|load|loads|show|face|ting|ter|e)?|(bull|horse|dip|bat|ape|chicken|dog|holy)shit',
  'bitch(es|ing|in|y)?|biatch|biotch|beyotch|sonofabitch|son of a bitch',
  'cunts?|twats?|wank(er|ers|ing|s)?|bastards?|bollocks|dickheads?|cock ?suckers?|cocksucking',
  'assholes?|arseholes?|asshats?|asswipes?|dumbass(es)?|smartass(es)?|ass|arse',
  'piss(ed|ing|es)?|douche ?bags?|douches?|skanks?|sluts?|slutty|whores?|pussy|pussies|jerk ?off',
  // slurs
  'nigg(er|ers|a|as|az|ah|uh)|sand ?nigg[a-z]*|faggots?|fags?|faggy|dykes?|retards?|retarded',
  'spics?|spicks?|chinks?|kikes?|wetbacks?|gooks?|trann(y|ies)|coons?|beaners?|ragheads?|towelheads?|pakis?|shemales?',
];

const DATING = wordsRegexes(DATING_TERMS);
const EXPLICIT = wordsRegexes(EXPLICIT_TERMS);
const DRUGS = wordsRegexes(DRUG_TERMS);
const CONTACT = wordsRegexes(CONTACT_TERMS);
const PROFANITY = wordsRegexes(PROFANITY_TERMS);

const anyMatch = (regexes: readonly RegExp[], text: string) => regexes.some((regex) => regex.test(text));

// ---------------------------------------------------------------------------------------------------
// Patterns on the plain form (digits and punctuation kept)

/** Craigslist personals codes: m4w, w4m, mw4m... */
const PERSONALS_CODE = /(?<![a-z0-9])(?:m|w|f|t|mm|mw|ww)4(?:m|w|f|t|mm|mw|ww)(?![a-z0-9])/;

/** Masked profanity: f*ck, sh*t, c*nt, b*tch, a**hole, n*gger. */
const MASKED_PROFANITY =
  /(?<![a-z])(?:f[*#%@$._-]{1,3}(?:c?k|ck)(?:ing|in|er|ers|ed|s)?|sh[*#%@!$._-]{1,2}t(?:s|ty)?|c[*#%@$_-]{1,2}nts?|b[*#%@$_-]{1,2}tch(?:es)?|a[*#%@$_-]{2}holes?|n[*#%_-]{1,2}gg(?:er|a)s?)(?![a-z])/;

/** Masked explicit words: p*rn, p0rn is handled by leetspeak. */
const MASKED_EXPLICIT = /(?<![a-z])(?:p[*#%@$._-]{1,2}rn[a-z]*|s[*#%$_-]{1,2}x)(?![a-z])/;

/** Letters, digits, @ and dots spaced out one by one: "b o b @ e x a m p l e . c o m". */
const SPACED_OUT_PLAIN = /(?<![a-z0-9@._-])[a-z0-9@._-](?: +[a-z0-9@._-]){4,}(?![a-z0-9@._-])/g;
const SPACE_RUNS = / +/g;
const squeeze = (run: string) => run.replace(SPACE_RUNS, '');

const EMAIL = /(?<![a-z0-9._%+-])[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}/;
const AT_WORD = String.raw`(?:\s*[([{<]\s*(?:at|@)\s*[)\]}>]\s*|\s+at\s+)`;
const DOT_WORD = String.raw`(?:\s*[([{<]\s*(?:dot|\.)\s*[)\]}>]\s*|\s+dot\s+)`;
const TOP_DOMAINS = '(?:com|net|org|edu|gov|co|uk|ca|io|me|us|info|biz|de|fr|au|nl|ie|nz)';
/** "bob @ gmail.com": spaces around @ only with a known top-level domain ("meet @ home.Bring cash" passes). */
const SPACED_EMAIL = new RegExp(
  String.raw`(?<![a-z0-9._%+-])[a-z0-9._%+-]+\s+@\s*[a-z0-9-]+(?:\s*\.\s*[a-z0-9-]+)*\s*\.\s*${TOP_DOMAINS}(?![a-z0-9])|(?<![a-z0-9._%+-])[a-z0-9._%+-]+\s*@\s+[a-z0-9-]+(?:\s*\.\s*[a-z0-9-]+)*\s*\.\s*${TOP_DOMAINS}(?![a-z0-9])`,
);
/** "jane [at] yahoo [dot] com", "john at example dot org", "mike at hotmail". */
const SPELLED_EMAIL = new RegExp(
  `(?<![a-z0-9._%+-])(?:${[
    String.raw`[a-z0-9._%+-]+\s*[([{<]\s*(?:at|@)\s*[)\]}>]\s*[a-z0-9-]+`,
    `[a-z0-9._%+-]+${AT_WORD}[a-z0-9-]+(?:${DOT_WORD}[a-z0-9-]+)*${DOT_WORD}${TOP_DOMAINS}(?![a-z0-9])`,
    String.raw`[a-z0-9._%+-]+\s+at\s+(?:gmail|googlemail|hotmail|yahoo|ymail|outlook|aol|icloud|protonmail|gmx|yandex|comcast|sbcglobal|btinternet)(?![a-z0-9])`,
  ].join('|')})`,
);
const SOCIAL_LINK =
  /(?<![a-z0-9-])(?:www\.|m\.|mobile\.)?(?:facebook\.com|fb\.com|fb\.me|m\.me|instagram\.com|instagr\.am|tiktok\.com|twitter\.com|x\.com|snapchat\.com|linkedin\.com|t\.me|telegram\.me|wa\.me|whatsapp\.com|kik\.me|discord\.gg|discord\.com|linktr\.ee|threads\.net|tinder\.com|bumble\.com|onlyfans\.com)(?![a-z0-9-])/;
const HANDLE =
  /(?<![a-z0-9._%+-])@(?!(?:home|work|school|the|my|your|our|noon|night|church|library|park|station|store|shop|office|mall)(?![a-z0-9_]))[a-z_][a-z0-9_.]{2,29}/;
const SOCIAL_LABEL =
  /(?<![a-z0-9])(?:snapchat|insta|instagram|ig|kik|telegram|discord|whatsapp|tiktok|twitter|fb|facebook|skype|wechat)\s*[:=]\s*@?[a-z0-9_.]{3,}/;

/**
 * Phone numbers: international (+44 7700 900123), North American with separators ((555) 123-4567,
 * 555.123.4567) or as ten digits (2125550199), national numbers with a trunk 0 (07700 900123,
 * 020 7946 0958, 0412 345 678), and digits written one by one (5 5 5 1 2 3 4 5 6 7).
 */
const PHONE = new RegExp(
  `(?<![\\d+])(?:${[
    String.raw`\+\d{1,3}[\s.-]?\(?\d{1,4}\)?(?:[\s.-]?\d{2,4}){2,4}`,
    String.raw`(?:1[\s.-]?)?\(?[2-9]\d{2}\)?[\s.-]?\d{3}[\s.-]\d{4}`,
    String.raw`[2-9]\d{2}[\s.-]\d{3}[\s.-]\d{2}[\s.-]\d{2}`,
    String.raw`1?[2-9]\d{2}[2-9]\d{6}`,
    String.raw`0\d{2,4}[\s.-]?\d{3,4}[\s.-]?\d{3,4}`,
    String.raw`\d(?:[\s.-]\d){9,11}`,
  ].join('|')})(?!\\d)`,
  'g',
);
/** A seven-digit local number, only refused after a word that says it is one ("call 555-0199"). */
const LOCAL_PHONE = /(?<![\d+])[2-9]\d{2}[\s.-]\d{4}(?!\d)/g;
const PHONE_CUE =
  /(?:call|text|txt|phone|cell|mobile|tel|ring|whatsapp|reach|contact|number)\W*(?:me|us)?\W*(?:at|on|is)?\W*$/;
/** Numbers that merely look like phone numbers: ISBNs, part and serial numbers. */
const NOT_A_PHONE =
  /(?<![a-z])(?:isbn(?:[\s-]?1[03])?|upc|ean|sku|serial|s\/n|sn|part|p\/n|pn|model|mpn|vin|oem|item|order|ref|lot|tracking|barcode|asin|id)(?:\s*(?:number|num|no|nr|#))?[\s#:.]*$/;
const ASCENDING = '01234567890123456789';

function isPhoneNumber(candidate: string, before: string): boolean {
  if (NOT_A_PHONE.test(before)) return false;
  const digits = candidate.replace(NON_DIGITS, '');
  if (digits.length < 10 && !candidate.startsWith('+')) return false;
  if (digits.length < 8 || digits.length > 15) return false;
  // Counting toys and rulers: 1 2 3 4 5 6 7 8 9 0.
  return !ASCENDING.includes(digits);
}

function hasPhoneNumber(plain: string): boolean {
  for (const match of plain.matchAll(PHONE)) {
    const start = match.index ?? 0;
    if (isPhoneNumber(match[0], plain.slice(Math.max(0, start - 24), start))) return true;
  }
  for (const match of plain.matchAll(LOCAL_PHONE)) {
    const start = match.index ?? 0;
    const before = plain.slice(Math.max(0, start - 24), start);
    if (PHONE_CUE.test(before) && !NOT_A_PHONE.test(before)) return true;
  }
  return false;
}

const NUMBER_WORD = '(?:zero|oh|one|two|three|four|five|six|seven|eight|nine|niner|\\d{1,4})';
/** Digits spelled out as words: "five five five one two three four five six seven". */
const SPOKEN_NUMBER = new RegExp(`(?<![a-z0-9])${NUMBER_WORD}(?: ${NUMBER_WORD}){6,}(?![a-z0-9])`, 'g');
const DIGIT_WORDS: Record<string, string> = {
  zero: '0',
  oh: '0',
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
  niner: '9',
};

function hasSpokenPhoneNumber(words: string): boolean {
  for (const match of words.matchAll(SPOKEN_NUMBER)) {
    let digits = '';
    let spelled = 0;
    for (const word of match[0].split(' ')) {
      const digit = DIGIT_WORDS[word];
      if (digit === undefined) digits += word;
      else {
        digits += digit;
        spelled++;
      }
    }
    if (spelled > 0 && digits.length >= 10 && digits.length <= 15 && !ASCENDING.includes(digits)) return true;
  }
  return false;
}

function hasContactDetails(plain: string, words: string): boolean {
  return (
    EMAIL.test(plain) ||
    SPACED_EMAIL.test(plain) ||
    EMAIL.test(plain.replace(SPACED_OUT_PLAIN, squeeze)) ||
    SPELLED_EMAIL.test(plain) ||
    SOCIAL_LINK.test(plain) ||
    HANDLE.test(plain) ||
    SOCIAL_LABEL.test(plain) ||
    hasPhoneNumber(plain) ||
    anyMatch(CONTACT, words) ||
    hasSpokenPhoneNumber(words)
  );
}

/** The first reason `text` breaks the Terms, or null. Checks run in the order of MODERATION_REASONS. */
function refusalReason(text: string, options: ModerationOptions = {}): ModerationReason | null {
  const plain = plainForm(text);
  let words = wordForm(plain);
  for (const allowed of ALLOW) words = words.replace(allowed, ' . ');
  if (anyMatch(DATING, words) || PERSONALS_CODE.test(plain)) return 'dating';
  if (anyMatch(EXPLICIT, words) || MASKED_EXPLICIT.test(plain)) return 'explicit';
  if (anyMatch(DRUGS, words)) return 'drugs-alcohol';
  if (!options.allowContactDetails && hasContactDetails(plain, words)) return 'contact-details';
  if (anyMatch(PROFANITY, words) || MASKED_PROFANITY.test(plain)) return 'profanity';
  return null;
}

/**
 * Checks every text (a title, a description, a message...) against the Terms. Missing and empty texts
 * pass. A refusal names the reason and carries a message, containing "not appropriate", for the member.
 */
export function moderateText(...texts: Array<string | null | undefined>): ModerationResult {
  return moderateTextWith({}, ...texts);
}

/** moderateText with options (a barter's conversation allows contact details); says which text broke them. */
export function moderateTextWith(
  options: ModerationOptions,
  ...texts: Array<string | null | undefined>
): ModerationResult {
  for (const [index, text] of texts.entries()) {
    if (!text) continue;
    const reason = refusalReason(text, options);
    if (reason) return { ...REFUSALS[reason], index };
  }
  return ALLOWED;
}

/** Throws 400 CONTENT_NOT_ALLOWED with the refusal message when any text breaks the Terms. */
export function assertAppropriate(...texts: Array<string | null | undefined>): void {
  const result = moderateText(...texts);
  if (!result.allowed) throw badRequest(result.message, ERROR_CODES.contentNotAllowed);
}
