import { Check, Clock } from 'lucide-react';
import type { Circle, CircleStep } from '../../../../common/schemas/circles';
import { MemberLink } from '../../../components/member-link';
import { Badge } from '../../../components/ui/badge';
import { ListingImage } from '../../../components/ui/listing-image';
import { type CircleHandOver, handOversFromViewer } from '../circle-format';

/** A member in a sentence of the loop: "You"/"you", or their name linking to their page. */
function Who({ step, start }: { step: CircleStep; start: boolean }) {
  if (step.me) return <>{start ? 'You' : 'you'}</>;
  return <MemberLink id={step.member.id} name={step.member.displayName} className="font-medium" />;
}

/** Whether the giver accepted, in words and an icon (never color alone). */
function AcceptedMark({ accepted }: { accepted: boolean }) {
  return accepted ? (
    <Badge tone="success" className="shrink-0">
      <Check className="h-3 w-3" aria-hidden="true" />
      Accepted
    </Badge>
  ) : (
    <Badge className="shrink-0">
      <Clock className="h-3 w-3" aria-hidden="true" />
      Not accepted yet
    </Badge>
  );
}

function HandOverRow({ handOver, showAccepted }: { handOver: CircleHandOver; showAccepted: boolean }) {
  const { step, to } = handOver;
  return (
    <li className="flex items-center gap-3 rounded-lg border border-slate-200 bg-white p-2">
      <ListingImage src={step.gives.thumbnailUrl} className="h-12 w-12 shrink-0 rounded-md text-[10px]" />
      <span className="min-w-0 flex-1 text-sm text-slate-800">
        <Who step={step} start /> {step.me ? 'give' : 'gives'}{' '}
        <span className="font-semibold text-slate-900">{step.gives.title}</span> to{' '}
        <Who step={to} start={false} />
      </span>
      {step.gives.isService ? <Badge tone="accent">Service</Badge> : null}
      {showAccepted ? <AcceptedMark accepted={step.accepted} /> : null}
    </li>
  );
}

/**
 * The loop as an ordered list, the viewer's own hand-over first: who gives what to whom, each item's
 * picture, and, while the circle waits for answers, who has accepted.
 */
export function CircleLoop({ circle, label = 'Who gives what' }: { circle: Circle; label?: string }) {
  const showAccepted = circle.status === 'proposed';
  return (
    <ol aria-label={label} className="grid gap-2">
      {handOversFromViewer(circle).map((handOver) => (
        <HandOverRow
          key={`${handOver.step.member.id ?? 'gone'}-${handOver.step.gives.title}`}
          handOver={handOver}
          showAccepted={showAccepted}
        />
      ))}
    </ol>
  );
}
