import { MemberLayout } from '../../components/layout/member-layout';
import { CirclesScreen } from '../../features/circles/components/circles-screen';

/** /circles: the member's trade circles, waiting for answers and past. */
export default function CirclesPage() {
  return (
    <MemberLayout>
      <CirclesScreen />
    </MemberLayout>
  );
}
