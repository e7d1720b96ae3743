import { Inbox } from '../../features/messages/components/inbox';
import { MemberLayout } from '../layout/member-layout';

/** /messages: the inbox of conversations, which the header's Messages icon and the Messages tab open. */
export default function MessagesPage() {
  return (
    <MemberLayout>
      <Inbox />
    </MemberLayout>
  );
}
