import { SwapDaysScreen } from '../../features/swap-days/components/swap-days-screen';
import { MemberLayout } from '../layout/member-layout';

/** /swap-days: the member's swap days, those near them, and organizing one (issue 16). */
export default function SwapDaysPage() {
  return (
    <MemberLayout>
      <SwapDaysScreen />
    </MemberLayout>
  );
}
