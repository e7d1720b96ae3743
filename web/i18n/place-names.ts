import { i18n } from './i18n';

/**
 * Place names in the active language (ADR 060). The server names places in English, as one text
 * ("Buckman, Portland, Oregon, United States"): that text is what the profile stores and what other
 * members' areas are called by, whatever language anyone reads. Shown, its last part, when it is a
 * country, is written in the reader's language by Intl.DisplayNames ("Estados Unidos"), and the
 * region before it when Spanish has a name of its own for it ("Carolina del Norte"); the town and
 * neighbourhood stay as they are named locally. A text that does not end in a country (a place
 * typed by hand, a swap day's place) is shown as written.
 */

type RegionNames = Record<string, Record<string, string>>;

/**
 * Regions with a Spanish name in common use (Fundéu's and the RAE's usage), by their English name
 * as server/features/places/region-names.ts writes it; the others (Oregon, Texas, California,
 * Ontario...) are written the same in Spanish.
 */
const SPANISH_REGIONS: RegionNames = {
  US: {
    'District of Columbia': 'Distrito de Columbia',
    Hawaii: 'Hawái',
    Louisiana: 'Luisiana',
    Mississippi: 'Misisipi',
    Missouri: 'Misuri',
    'New Jersey': 'Nueva Jersey',
    'New Mexico': 'Nuevo México',
    'New York': 'Nueva York',
    'North Carolina': 'Carolina del Norte',
    'North Dakota': 'Dakota del Norte',
    Pennsylvania: 'Pensilvania',
    'South Carolina': 'Carolina del Sur',
    'South Dakota': 'Dakota del Sur',
    'West Virginia': 'Virginia Occidental',
  },
  CA: {
    'British Columbia': 'Columbia Británica',
    'New Brunswick': 'Nuevo Brunswick',
    'Newfoundland and Labrador': 'Terranova y Labrador',
    'Northwest Territories': 'Territorios del Noroeste',
    'Nova Scotia': 'Nueva Escocia',
    'Prince Edward Island': 'Isla del Príncipe Eduardo',
    Quebec: 'Quebec',
  },
  AU: {
    'Australian Capital Territory': 'Territorio de la Capital Australiana',
    'New South Wales': 'Nueva Gales del Sur',
    'Northern Territory': 'Territorio del Norte',
    'South Australia': 'Australia Meridional',
    'Western Australia': 'Australia Occidental',
  },
  GB: { England: 'Inglaterra', Scotland: 'Escocia', Wales: 'Gales', 'Northern Ireland': 'Irlanda del Norte' },
};

const REGIONS_BY_LOCALE: Record<string, RegionNames> = { es: SPANISH_REGIONS };

const A = 'A'.charCodeAt(0);
let countryCodes: Map<string, string> | null = null;

/** English country name -> ISO 3166 code, as the server's Intl writes them ("United States" -> "US"). */
function codeOfCountry(name: string): string | undefined {
  if (!countryCodes) {
    countryCodes = new Map();
    const english = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
    for (let first = 0; first < 26; first++) {
      for (let second = 0; second < 26; second++) {
        const code = String.fromCharCode(A + first, A + second);
        let shown: string | undefined;
        try {
          shown = english.of(code);
        } catch {
          shown = undefined;
        }
        // Codes the data does not name come back as themselves (or nothing).
        if (shown && shown !== code && !countryCodes.has(shown)) countryCodes.set(shown, code);
      }
    }
  }
  return countryCodes.get(name);
}

const displayNames = new Map<string, Intl.DisplayNames>();

function countryIn(locale: string, code: string): string | undefined {
  let names = displayNames.get(locale);
  if (!names) {
    names = new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' });
    displayNames.set(locale, names);
  }
  try {
    return names.of(code) ?? undefined;
  } catch {
    return undefined;
  }
}

/** A place's name in `locale` (the active language by default); see above. Empty stays empty. */
export function formatPlaceName(name: string, locale: string = i18n.locale): string {
  if (!name || !locale || locale === 'en' || locale.startsWith('en-')) return name;
  const parts = name.split(', ');
  const last = parts[parts.length - 1] as string;
  const code = codeOfCountry(last);
  if (!code) return name;
  const country = countryIn(locale, code);
  if (country) parts[parts.length - 1] = country;
  if (parts.length >= 3) {
    const region = parts[parts.length - 2] as string;
    const translated = REGIONS_BY_LOCALE[locale.split('-')[0] as string]?.[code]?.[region];
    if (translated) parts[parts.length - 2] = translated;
  }
  return parts.join(', ');
}
