import { describe, expect, it } from 'vitest';
import {
  BARTER_ACTIONS,
  BARTER_STATUSES,
  type BarterContext,
  type BarterRole,
  canTake,
  readsFacts,
} from './barter-machine';

/** Every context the machine can be asked about. */
function everyContext(): BarterContext[] {
  const contexts: BarterContext[] = [];
  const flags = [false, true];
  for (const status of BARTER_STATUSES)
    for (const role of ['sender', 'recipient'] as BarterRole[])
      for (const expired of flags)
        for (const confirmedByMe of flags)
          for (const confirmedByOther of flags)
            for (const itemsAvailable of flags)
              for (const ratedByMe of flags)
                contexts.push({
                  status,
                  role,
                  expired,
                  confirmedByMe,
                  confirmedByOther,
                  itemsAvailable,
                  ratedByMe,
                });
  return contexts;
}

describe('readsFacts: which actions the server must read items and ratings for (ADR 104)', () => {
  const contexts = everyContext();

  it.each(BARTER_ACTIONS.filter((action) => !readsFacts(action)))(
    '%s is decided from the request’s row alone: the facts never change the answer',
    (action) => {
      for (const context of contexts) {
        const answers = new Set(
          [false, true].flatMap((itemsAvailable) =>
            [false, true].map((ratedByMe) => canTake(action, { ...context, itemsAvailable, ratedByMe })),
          ),
        );
        expect(answers.size, JSON.stringify({ action, context })).toBe(1);
      }
    },
  );

  it.each(BARTER_ACTIONS.filter((action) => readsFacts(action)))(
    '%s needs them: some request is answered differently with other facts',
    (action) => {
      const differs = contexts.some(
        (context) =>
          canTake(action, context) !==
            canTake(action, { ...context, itemsAvailable: !context.itemsAvailable }) ||
          canTake(action, context) !== canTake(action, { ...context, ratedByMe: !context.ratedByMe }),
      );
      expect(differs).toBe(true);
    },
  );

  it('lets a message be sent without them', () => {
    expect(readsFacts('message')).toBe(false);
    expect(readsFacts('accept')).toBe(true);
    expect(readsFacts('rate')).toBe(true);
  });
});
