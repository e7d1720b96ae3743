import type { Circle } from '#common/schemas/circles.ts';
import { createWant } from '../../test/factories';
import type { TestApp } from '../../test/helpers';
import type { barterKit, Member } from '../barters/barter-test-kit';
import { requestGraph, settleMatchGraph } from '../match-graph';
import { drainCircleChanges } from './circles-plugin';

/** What the healing tests' towns trade (ADR 081): four kinds of thing, one of each per member. */
export const THINGS = [
  { title: 'Cordless drill', category: 'tools' },
  { title: 'Camping tent', category: 'rvs+camp' },
  { title: 'Acoustic guitar', category: 'music instr' },
  { title: 'Road bike', category: 'bikes' },
] as const;
export type Thing = (typeof THINGS)[number];
export const [DRILL, TENT, GUITAR, BIKE] = THINGS as unknown as [Thing, Thing, Thing, Thing];

/**
 * Towns of members who trade THINGS, and reading their circles through the API, for one test file's
 * app (`t`) and barter kit.
 */
export function circleTestKit(t: TestApp, kit: ReturnType<typeof barterKit>) {
  /** The match graph and the circle finder brought up to date, as their jobs do. */
  async function settle() {
    await settleMatchGraph(t.app.db);
    await drainCircleChanges(t.app.db);
  }

  let towns = 0;
  /** Each test in its own town, 100 miles from the others: towns never mix. */
  function town() {
    const place = { latitude: 30 + towns++ * 1.5, longitude: -90 };
    /** A member of this town who offers `gives` and wants every thing in `wants`. */
    return async (name: string, gives: Thing, wants: Thing[]) => {
      const member = await kit.member(name, place);
      await kit.item(member, { title: gives.title, category: gives.category });
      for (const want of wants) await createWant(t.app.db, { userId: member.id, ...want });
      await requestGraph(t.app.db, member.id);
      // Each member's graph built before the next lists, so the town is whole before the circle is
      // looked for (drains no longer lose an item listed during a build: ADR 022's addendum).
      await settleMatchGraph(t.app.db);
      return member;
    };
  }

  const list = async (who: Member, box = 'proposed') =>
    kit.ok<Circle[]>(await kit.call(who, 'GET', `/api/circles?box=${box}`));
  const act = (who: Member, id: number, action: 'accept' | 'decline') =>
    kit.call(who, 'POST', `/api/circles/${id}/${action}`);

  return { settle, town, list, act };
}

/** The loop's first names, from Ann's seat when she is in it (the order matters, not where it starts). */
export function names(circle: Circle | undefined): string[] {
  const loop = circle?.steps.map((step) => step.member.displayName.split(' ')[0] ?? '') ?? [];
  const start = Math.max(0, loop.indexOf('Ann'));
  return [...loop.slice(start), ...loop.slice(0, start)];
}

/** Who has accepted, by first name. */
export const acceptedBy = (circle: Circle) =>
  circle.steps.filter((step) => step.accepted).map((step) => step.member.displayName.split(' ')[0]);
