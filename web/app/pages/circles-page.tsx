import { CirclesScreen } from '../../features/circles/components/circles-screen';
import { MemberLayout } from '../layout/member-layout';

/** /circles: the member's trade circles, waiting for answers and past. */
export default function CirclesPage() {
  return (
    <MemberLayout>
      <CirclesScreen />
    </MemberLayout>
  );
}
