import { useParams } from 'wouter';
import { BarterDetail } from '../../features/barters/components/barter-detail';
import { WantQuestions } from '../../features/listings/components/want-questions';
import { MemberLayout } from '../layout/member-layout';
import NotFoundPage from './not-found-page';

/** /barters/:id: one barter's page. */
export default function BarterPage() {
  const { id } = useParams<{ id: string }>();
  if (!/^[1-9]\d{0,9}$/.test(id ?? '') || Number(id) > 2_147_483_647) return <NotFoundPage />;
  return (
    <MemberLayout>
      {/* Keyed by id: moving to the counter offer's page starts its forms afresh. */}
      <BarterDetail key={id} id={Number(id)} />
      {/* After a completed trade: "Did this fill your want?" (issue 30); nothing otherwise. */}
      <WantQuestions key={`wants-${id}`} barterRequestId={Number(id)} />
    </MemberLayout>
  );
}
