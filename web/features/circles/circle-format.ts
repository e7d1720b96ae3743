import { type Circle, type CircleStep, circleSentence } from '../../../common/schemas/circles';

/**
 * The circle in one sentence from the viewer's seat (common's circleSentence), without the doubled
 * full stop a name ending in an initial leaves ("… from Cat U..").
 */
export function sentenceOf(circle: Pick<Circle, 'give' | 'get'>): string {
  return circleSentence(circle).replace(/\.\.$/, '.');
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
  const giver = step.me ? 'You give' : `${step.member.displayName} gives`;
  const receiver = to.me ? 'you' : to.member.displayName;
  return `${giver} ${step.gives.title} to ${receiver}`;
}

/** Member ids to names, for a circle's conversation (three or four people in one thread). */
export function circleMemberNames(circle: Pick<Circle, 'steps'>): Map<string, string> {
  const names = new Map<string, string>();
  for (const step of circle.steps) if (step.member.id) names.set(step.member.id, step.member.displayName);
  return names;
}

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'}`;

/** How long a proposed circle has left: "2 days, 5 hours left", "40 minutes left", "Expired". */
export function timeLeft(expiresAt: string, now: Date = new Date()): string {
  const left = Date.parse(expiresAt) - now.getTime();
  if (Number.isNaN(left)) return '';
  if (left <= 0) return 'Expired';
  if (left >= DAY) {
    const days = Math.floor(left / DAY);
    const hours = Math.floor((left % DAY) / HOUR);
    return hours > 0
      ? `${plural(days, 'day')}, ${plural(hours, 'hour')} left`
      : `${plural(days, 'day')} left`;
  }
  if (left >= HOUR) return `${plural(Math.floor(left / HOUR), 'hour')} left`;
  const minutes = Math.floor(left / 60_000);
  return minutes > 0 ? `${plural(minutes, 'minute')} left` : 'Less than a minute left';
}

/** How many members have accepted, in words: "2 of 3 accepted". */
export function acceptedCount(circle: Pick<Circle, 'steps'>): string {
  const accepted = circle.steps.filter((step) => step.accepted).length;
  return `${accepted} of ${circle.steps.length} accepted`;
}
