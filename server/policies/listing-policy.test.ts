import { describe, expect, it } from 'vitest';
import {
  type Actor,
  itemAllowedActions,
  itemPolicy,
  type ListingAction,
  listingPolicy,
} from './listing-policy';

const owner = { id: 'owner-id' };
const neighbour = { id: 'neighbour-id' };
const listing = { userId: owner.id };

/** Every action for every kind of actor: only the owner may do anything. */
const TRUTH_TABLE: Array<[string, Actor, Record<ListingAction, boolean>]> = [
  ['the owner', owner, { update: true, delete: true }],
  ['another member', neighbour, { update: false, delete: false }],
  ['nobody signed in', null, { update: false, delete: false }],
];

describe('listingPolicy', () => {
  for (const [who, actor, expected] of TRUTH_TABLE) {
    for (const action of Object.keys(expected) as ListingAction[]) {
      it(`${who}: ${action} is ${expected[action] ? 'allowed' : 'refused'}`, () => {
        expect(listingPolicy[action](actor, listing)).toBe(expected[action]);
      });
    }
  }

  it('covers every action of the policy', () => {
    expect(Object.keys(listingPolicy).sort()).toEqual(Object.keys(TRUTH_TABLE[0]?.[2] ?? {}).sort());
  });

  it('compares ids exactly (no prefix or case games)', () => {
    expect(listingPolicy.update({ id: 'OWNER-ID' }, listing)).toBe(false);
    expect(listingPolicy.update({ id: 'owner' }, listing)).toBe(false);
  });
});

describe('itemPolicy', () => {
  const item = (overrides: Partial<Parameters<typeof itemAllowedActions>[1]> = {}) => ({
    userId: owner.id,
    isActive: true,
    moderation: null,
    reservedByRequestId: null,
    ...overrides,
  });

  it.each([
    ['an active item', item(), ['edit', 'hide', 'delete']],
    ['a hidden item', item({ isActive: false }), ['edit', 'show', 'delete']],
    ['an item a moderator hid', item({ isActive: false, moderation: 'removed' }), ['edit', 'delete']],
    ['an item an accepted barter holds', item({ reservedByRequestId: 7 }), []],
    ['a hidden item a barter holds', item({ isActive: false, reservedByRequestId: 7 }), []],
  ] as const)('the owner of %s may: %j', (_what, state, expected) => {
    expect(itemAllowedActions(owner, state)).toEqual(expected);
  });

  it('lets nobody but the owner do anything', () => {
    for (const actor of [neighbour, null]) {
      expect(itemAllowedActions(actor, item())).toEqual([]);
      for (const action of Object.keys(itemPolicy) as Array<keyof typeof itemPolicy>) {
        expect(itemPolicy[action](actor, item({ isActive: false }))).toBe(false);
      }
    }
  });
});
