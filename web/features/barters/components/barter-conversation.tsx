import { Trans } from '@lingui/react/macro';
import type { BarterConversationProps } from '#web/components/feature-slots.tsx';
import { useBarter } from '../api/barters';
import { Conversation } from './conversation';

/**
 * One barter's conversation read by its id, for another feature's page (a trade circle's, through the
 * BarterConversation slot, ADR 068): it loads the barter, then shows its Conversation.
 */
export function BarterConversation({ barterId, names }: BarterConversationProps) {
  const barter = useBarter(barterId);
  if (barter.isLoading)
    return (
      <p className="text-sm text-slate-600">
        <Trans>Loading the conversation...</Trans>
      </p>
    );
  if (!barter.data) {
    return (
      <p className="text-sm text-red-700">
        <Trans>The conversation could not be loaded. Please try again.</Trans>
      </p>
    );
  }
  return <Conversation barter={barter.data} names={names} />;
}
