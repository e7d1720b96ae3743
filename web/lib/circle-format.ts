import type { MessageDescriptor } from '@lingui/core';
import { msg, plural, t } from '@lingui/core/macro';
import type { Circle, CircleStatus, CircleStep } from '#common/schemas/circles.ts';

/*
 * The web's own circle sentences, in the active language (ADR 036): common/schemas/circles.ts keeps
 * the server's English ones (circleSentence, circlePath). Call at render time.
 */

/** What the web shows for each state (common's CIRCLE_STATUS_LABELS): `t(CIRCLE_STATUS_MESSAGES[status])`. */
export const CIRCLE_STATUS_MESSAGES: Record<CircleStatus, MessageDescriptor> = {
  proposed: msg`Waiting for everyone`,
  accepted: msg`Accepted`,
  completed: msg`Completed`,
  declined: msg`Declined`,
  expired: msg`Expired`,
  cancelled: msg`Canceled`,
};

/**
 * The circle in one sentence from the viewer's seat (common's circleSentence), without the doubled
 * full stop a name ending in an initial leaves ("… from Cat U..").
 */
export function sentenceOf(circle: Pick<Circle, 'give' | 'get'>): string {
  const myItem = circle.give.item.title;
  const receiver = circle.give.to.displayName;
  const theirItem = circle.get.item.title;
  const giver = circle.get.from.displayName;
  return t`You give your ${myItem} to ${receiver}; you get ${theirItem} from ${giver}.`.replace(/\.\.$/, '.');
}

/** The viewer's giving hand-over: "You give Cordless drill to Ben T." (no full stop of its own). */
export function youGiveText(circle: Pick<Circle, 'give'>): string {
  const item = circle.give.item.title;
  const receiver = circle.give.to.displayName;
  return t`You give ${item} to ${receiver}`;
}

/** The viewer's getting hand-over: "You get Acoustic guitar from Cat U." (no full stop of its own). */
export function youGetText(circle: Pick<Circle, 'get'>): string {
  const item = circle.get.item.title;
  const giver = circle.get.from.displayName;
  return t`You get ${item} from ${giver}`;
}

/** One hand-over of a circle: who gives what to whom. */
export interface CircleHandOver {
  step: CircleStep;
  /** The member who receives `step.gives` (the next one in the loop). */
  to: CircleStep;
}

/** The circle's hand-overs in loop order, starting with the viewer's own. */
export function handOversFromViewer(circle: Pick<Circle, 'steps'>): CircleHandOver[] {
  const { steps } = circle;
  const start = Math.max(
    0,
    steps.findIndex((step) => step.me),
  );
  return steps.map((_, index) => {
    const at = (start + index) % steps.length;
    return {
      step: steps[at] as CircleStep,
      to: steps[(at + 1) % steps.length] as CircleStep,
    };
  });
}

/**
 * "You give Cordless drill to Ben T.", "Cat T. gives Acoustic guitar to you": no full stop of its own,
 * since names already end in one.
 */
export function handOverSentence({ step, to }: CircleHandOver): string {
  const item = step.gives.title;
  const receiver = to.member.displayName;
  if (step.me) return t`You give ${item} to ${receiver}`;
  const giver = step.member.displayName;
  return to.me ? t`${giver} gives ${item} to you` : t`${giver} gives ${item} to ${receiver}`;
}

/**
 * The whole loop in words from the viewer (common's circlePath), with a full stop: "You give Cordless
 * drill to Ben T., Ben T. gives Camping tent to Cat U., Cat U. gives Acoustic guitar to you."
 */
export function circlePathText(circle: Pick<Circle, 'steps'>): string {
  const path = handOversFromViewer(circle).map(handOverSentence).join(', ');
  return `${path}.`.replace(/\.\.$/, '.');
}

/** Member ids to names, for a circle's conversation (three or four people in one thread). */
export function circleMemberNames(circle: Pick<Circle, 'steps'>): Map<string, string> {
  const names = new Map<string, string>();
  for (const step of circle.steps) if (step.member.id) names.set(step.member.id, step.member.displayName);
  return names;
}

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
/** How long a proposed circle has left: "2 days, 5 hours left", "40 minutes left", "Expired". */
export function timeLeft(expiresAt: string, now: Date = new Date()): string {
  const left = Date.parse(expiresAt) - now.getTime();
  if (Number.isNaN(left)) return '';
  if (left <= 0) return t`Expired`;
  if (left >= DAY) {
    const days = Math.floor(left / DAY);
    const hours = Math.floor((left % DAY) / HOUR);
    return hours > 0
      ? t`${plural(days, { one: '# day', other: '# days' })}, ${plural(hours, { one: '# hour', other: '# hours' })} left`
      : plural(days, { one: '# day left', other: '# days left' });
  }
  if (left >= HOUR) {
    const hours = Math.floor(left / HOUR);
    return plural(hours, { one: '# hour left', other: '# hours left' });
  }
  const minutes = Math.floor(left / 60_000);
  return minutes > 0
    ? plural(minutes, { one: '# minute left', other: '# minutes left' })
    : t`Less than a minute left`;
}

/** How many members have accepted, in words: "2 of 3 accepted". */
export function acceptedCount(circle: Pick<Circle, 'steps'>): string {
  const accepted = circle.steps.filter((step) => step.accepted).length;
  const total = circle.steps.length;
  return t`${accepted} of ${total} accepted`;
}

/** The same count as a sentence for the circle's page, with whether the viewer's answer is needed. */
export function acceptedSentence(circle: Pick<Circle, 'steps'>): string {
  const accepted = circle.steps.filter((step) => step.accepted).length;
  const total = circle.steps.length;
  const mine = circle.steps.find((step) => step.me);
  return mine?.accepted
    ? t`${accepted} of ${total} accepted, you among them.`
    : t`${accepted} of ${total} accepted. Your answer is needed.`;
}
