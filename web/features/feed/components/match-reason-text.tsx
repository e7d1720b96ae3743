import { useLingui } from '@lingui/react/macro';
import type { MatchReason } from '#common/schemas/feed.ts';

/**
 * The card's line under "Matches your want": what of the item matched it, in a short plain phrase
 * (issue 31, ADR 089; docs/matching.md): the want's words the title holds as the member typed them,
 * a related word, or the category alone. Its own chunk, loaded beside the feed's first screen.
 */
export function MatchReasonText({ reason }: { reason: MatchReason }) {
  const { t } = useLingui();
  const words = reason.words.join(', ');
  const related = reason.related.join(', ');
  let text: string;
  switch (reason.kind) {
    case 'title':
      text = t`The title is what you want`;
      break;
    case 'near-spelling':
      text = t`A title spelt like your want`;
      break;
    case 'elsewhere':
      text = t`In the description: ${words}`;
      break;
    case 'category':
      text = t`Same category`;
      break;
    default:
      text = [words ? t`In the title: ${words}` : '', related ? t`Related word in the title: ${related}` : '']
        .filter(Boolean)
        .join(' · ');
  }
  return <li>{text}</li>;
}
