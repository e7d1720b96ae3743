import { type APIRequestContext, expect } from '@playwright/test';

/**
 * The name `viewer` sees `member` under: "Ann A.", or a letter or a number more when an earlier Ann
 * A. lives near (ADR 058). Journeys read it rather than assume it: the desktop and phone runs of a
 * journey, and journeys placed at random, share one database, so a namesake may live near.
 */
export async function shownName(viewer: APIRequestContext, member: APIRequestContext): Promise<string> {
  const id = ((await (await member.get('/api/auth/user')).json()) as { id: string }).id;
  const response = await viewer.get(`/api/members/${id}`);
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { displayName: string }).displayName;
}

/**
 * Ann's name in any of those forms ("Ann A.", "Ann Ab.", "Ann A. (2)"), as a regular expression's
 * source, for the journeys whose Ann and Ben are made by fixtures placed at random.
 */
export const ANN_SHOWN = String.raw`Ann A[a-z]*\.( \(\d+\))?`;
