import { useParams } from 'wouter';
import { SwapDayDetail } from '../../features/swap-days/components/swap-day-detail';
import { isRouteId } from '../../lib/route-id';
import { MemberLayout } from '../layout/member-layout';
import NotFoundPage from './not-found-page';

/** /swap-days/:id: one swap day's page. */
export default function SwapDayPage() {
  const { id } = useParams<{ id: string }>();
  if (!isRouteId(id)) return <NotFoundPage />;
  return (
    <MemberLayout>
      <SwapDayDetail key={id} id={Number(id)} />
    </MemberLayout>
  );
}
