import type { Circle, CircleItem, CircleStep } from '../../../../common/schemas/circles';

/** Test data of the circle screens: plain objects in the API's shapes, with overrides. */

export function circleItem(id: number, title: string, overrides: Partial<CircleItem> = {}): CircleItem {
  return {
    id,
    title,
    category: 'tools',
    isService: false,
    thumbnailUrl: `/photos/${id}-thumb.webp`,
    estimatedValue: null,
    ...overrides,
  };
}

const ME = { id: 'me', displayName: 'Ann R.', profileImageUrl: null };
const BEN = { id: 'ben', displayName: 'Ben T.', profileImageUrl: null };
const CAT = { id: 'cat', displayName: 'Cat U.', profileImageUrl: null };

/**
 * The viewer (Ann R., id 'me') gives a Cordless drill to Ben T., who gives a Camping tent to Cat U.,
 * who gives an Acoustic guitar to the viewer. Proposed, nobody has accepted yet, 2 days and 5 hours left.
 */
export function circle(
  overrides: Partial<Circle> = {},
  accepted: [boolean, boolean, boolean] = [false, false, false],
): Circle {
  const drill = circleItem(11, 'Cordless drill');
  const tent = circleItem(12, 'Camping tent', { category: 'rvs+camp' });
  const guitar = circleItem(13, 'Acoustic guitar', { category: 'music instr' });
  const steps: CircleStep[] = [
    { member: ME, me: true, gives: drill, accepted: accepted[0] },
    { member: BEN, me: false, gives: tent, accepted: accepted[1] },
    { member: CAT, me: false, gives: guitar, accepted: accepted[2] },
  ];
  return {
    id: 5,
    status: 'proposed',
    steps,
    give: { item: drill, to: BEN },
    get: { item: guitar, from: CAT },
    expiresAt: new Date(Date.now() + (2 * 24 + 5) * 3600_000 + 60_000).toISOString(),
    createdAt: '2026-03-01T10:00:00.000Z',
    allowedActions: accepted[0] ? ['decline'] : ['accept', 'decline'],
    giveBarterId: null,
    getBarterId: null,
    threadId: null,
    closedBy: null,
    swapDayId: null,
    ...overrides,
  };
}

/** The same circle once everyone accepted: the viewer gives in barter 41, gets in barter 43, thread 41. */
export function acceptedCircle(overrides: Partial<Circle> = {}): Circle {
  return circle(
    {
      status: 'accepted',
      expiresAt: null,
      allowedActions: [],
      giveBarterId: 41,
      getBarterId: 43,
      threadId: 41,
      ...overrides,
    },
    [true, true, true],
  );
}
