import { Trans, useLingui } from '@lingui/react/macro';
import { Check, Clock } from 'lucide-react';
import type { Circle, CircleStep } from '#common/schemas/circles.ts';
import { MemberLink } from '#web/components/member-link.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { ListingImage } from '#web/components/ui/listing-image.tsx';
import { type CircleHandOver, handOversFromViewer } from '#web/lib/circle-format.ts';

/** Another member in a sentence of the loop: their name, linking to their page. */
function Who({ step }: { step: CircleStep }) {
  return <MemberLink id={step.member.id} name={step.member.displayName} className="font-medium" />;
}

/** Whether the giver accepted, in words and an icon (never color alone). */
function AcceptedMark({ accepted }: { accepted: boolean }) {
  return accepted ? (
    <Badge tone="success" className="shrink-0">
      <Check className="h-3 w-3" aria-hidden="true" />
      <Trans context="a member's answer to a trade circle">Accepted</Trans>
    </Badge>
  ) : (
    <Badge className="shrink-0">
      <Clock className="h-3 w-3" aria-hidden="true" />
      <Trans>Not accepted yet</Trans>
    </Badge>
  );
}

function HandOverRow({ handOver, showAccepted }: { handOver: CircleHandOver; showAccepted: boolean }) {
  const { step, to } = handOver;
  const item = <span className="font-semibold text-slate-900">{step.gives.title}</span>;
  const giver = <Who step={step} />;
  const receiver = <Who step={to} />;
  return (
    <li className="flex items-center gap-3 rounded-lg border border-slate-200 bg-white p-2">
      <ListingImage
        thumbnail
        src={step.gives.thumbnailUrl}
        className="h-12 w-12 shrink-0 rounded-md text-[10px]"
      />
      <span className="min-w-0 flex-1 text-sm text-slate-800">
        {step.me ? (
          <Trans>
            You give {item} to {receiver}
          </Trans>
        ) : to.me ? (
          <Trans>
            {giver} gives {item} to you
          </Trans>
        ) : (
          <Trans>
            {giver} gives {item} to {receiver}
          </Trans>
        )}
      </span>
      {step.gives.isService ? (
        <Badge tone="accent">
          <Trans>Service</Trans>
        </Badge>
      ) : null}
      {showAccepted ? <AcceptedMark accepted={step.accepted} /> : null}
    </li>
  );
}

/**
 * The loop as an ordered list, the viewer's own hand-over first: who gives what to whom, each item's
 * picture, and, while the circle waits for answers, who has accepted.
 */
export function CircleLoop({ circle, label }: { circle: Circle; label?: string }) {
  const { t } = useLingui();
  const showAccepted = circle.status === 'proposed';
  return (
    <ol aria-label={label ?? t`Who gives what`} className="grid gap-2">
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
