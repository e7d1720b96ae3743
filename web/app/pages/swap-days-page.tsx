import { MemberLayout } from '../../components/layout/member-layout';
import { SwapDaysScreen } from '../../features/swap-days/components/swap-days-screen';

/** /swap-days: the member's swap days, those near them, and organizing one (issue 16). */
export default function SwapDaysPage() {
  return (
    <MemberLayout>
      <SwapDaysScreen />
    </MemberLayout>
  );
}
