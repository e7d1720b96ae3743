import { type ClassValue, clsx } from 'clsx';
import { createTailwindMerge, getDefaultConfig } from 'tailwind-merge';

/** tailwind-merge's configuration, made once: by prepareClassMerge() or by the first merge. */
let config: ReturnType<typeof getDefaultConfig> | undefined;
const configuration = () => {
  config ??= getDefaultConfig();
  return config;
};

/** tailwind-merge's own `twMerge`, with its configuration made apart from its class map (below). */
const merge = createTailwindMerge(configuration);

/**
 * Makes tailwind-merge's configuration (its scales and validators) ahead of the first merge, which
 * then builds only the class map from it: the warm-up (web/lib/warm-up.ts) does the two in tasks of
 * their own, each about half of what the first merge alone took.
 */
export function prepareClassMerge(): void {
  configuration();
}

/** Merge class names, letting later Tailwind classes win. */
export function cn(...inputs: ClassValue[]): string {
  return merge(clsx(inputs));
}
