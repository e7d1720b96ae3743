import { MemberLayout } from '../../components/layout/member-layout';
import { BartersScreen } from '../../features/barters/components/barters-screen';

/** /barters: the member's proposals and barters, in four lists. */
export default function BartersPage() {
  return (
    <MemberLayout>
      <BartersScreen />
    </MemberLayout>
  );
}
