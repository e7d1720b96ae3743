import { describe, expect, it } from 'vitest';
import { type Actor, type ListingAction, listingPolicy } from './listing-policy';

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
