// No zod here: imported by the web app's cards and the server's presenters alike.

/** A last name's initial with a full stop ("R."), or null when there is none. */
export function lastInitial(lastName: string | null | undefined): string | null {
  const initial = lastName?.trim().charAt(0);
  return initial ? `${initial.toLocaleUpperCase('en')}.` : null;
}

/**
 * How other members see a member: first name and last initial ("Ann R."), never the whole last
 * name; 'User' for a deleted account or one without a name (spec: the trade history's 'User').
 */
export function memberDisplayName(
  firstName: string | null | undefined,
  lastName: string | null | undefined,
): string {
  const first = firstName?.trim();
  if (!first) return 'User';
  const initial = lastInitial(lastName);
  return initial ? `${first} ${initial}` : first;
}

/**
 * A stored shown name (`users.display_name`, ADR 058: "Maya Ol." when another Maya O. lives near)
 * as a card's two parts: the first name and what of the last name shows ("Ol.", "O. (2)"). Without
 * a stored name (a row its trigger has not named), the last initial.
 */
export function shownNameParts(
  shownName: string | null | undefined,
  firstName: string | null | undefined,
  lastName: string | null | undefined,
): { firstName: string | null; lastName: string | null } {
  const first = firstName?.trim() || null;
  if (!shownName) return { firstName: first, lastName: lastInitial(lastName) };
  if (first && shownName.startsWith(`${first} `))
    return { firstName: first, lastName: shownName.slice(first.length + 1) };
  if (!first || shownName === first) return { firstName: first, lastName: null };
  return { firstName: shownName, lastName: null };
}

/** How a deleted account shows wherever its trades, ratings and messages remain (ADR 025). */
export const FORMER_MEMBER = 'Former member';
