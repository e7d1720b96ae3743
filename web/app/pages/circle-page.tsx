import { useParams } from 'wouter';
import { CircleDetail } from '../../features/circles/components/circle-detail';
import { isRouteId } from '../../lib/route-id';
import { MemberLayout } from '../layout/member-layout';
import NotFoundPage from './not-found-page';

/** /circles/:id: one trade circle's page. */
export default function CirclePage() {
  const { id } = useParams<{ id: string }>();
  if (!isRouteId(id)) return <NotFoundPage />;
  return (
    <MemberLayout>
      <CircleDetail key={id} id={Number(id)} />
    </MemberLayout>
  );
}
