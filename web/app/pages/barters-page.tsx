import { BartersScreen } from '../../features/barters/components/barters-screen';
import { TradeCirclesSection } from '../../features/circles/components/trade-circles-section';
import { MemberLayout } from '../layout/member-layout';

/** /barters: the trade circles waiting for the member's answer, then their barters in four lists. */
export default function BartersPage() {
  return (
    <MemberLayout>
      <BartersScreen circles={<TradeCirclesSection />} />
    </MemberLayout>
  );
}
