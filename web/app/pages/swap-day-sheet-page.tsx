import { useParams } from 'wouter';
import { PickUpSheet } from '../../features/swap-days/components/pick-up-sheet';
import { isRouteId } from '../../lib/route-id';
import { MemberLayout } from '../layout/member-layout';
import NotFoundPage from './not-found-page';

/** /swap-days/:id/sheet: the printable pick-up sheet of a matched swap day. */
export default function SwapDaySheetPage() {
  const { id } = useParams<{ id: string }>();
  if (!isRouteId(id)) return <NotFoundPage />;
  return (
    <MemberLayout>
      <PickUpSheet key={id} id={Number(id)} />
    </MemberLayout>
  );
}
