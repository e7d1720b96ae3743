import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import type { Circle, CircleAction } from '#common/schemas/circles.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog, DialogContent, DialogTrigger } from '#web/components/ui/dialog.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { serverMessageOf } from '#web/lib/api-client.ts';
import { handOversFromViewer } from '#web/lib/circle-format.ts';
import { useCircleAction } from '../api/circles';

/**
 * The other members' names in loop order from the viewer (whom they give to first), as one phrase:
 * "Ben T. and Cat T.", "Ben T., Cat T. and Dan U.".
 */
export function othersOf(circle: Pick<Circle, 'steps'>): string {
  const names = handOversFromViewer(circle)
    .filter(({ step }) => !step.me)
    .map(({ step }) => step.member.displayName);
  if (names.length <= 1) return names[0] ?? '';
  const rest = names.slice(0, -1).join(', ');
  const last = names.at(-1) ?? '';
  return t`${rest} and ${last}`;
}

/**
 * Accept and Decline, as far as the server allows them now. Decline asks first (it dissolves the
 * circle for everyone). A refusal shows the server's sentence in a toast. `onDone` runs after a
 * step the server took, with the circle as it is now, once the page shows it: the caller moves the
 * focus there, since the button pressed may be gone.
 */
export function CircleActions({
  circle,
  onDone,
}: {
  circle: Circle;
  onDone?: (circle: Circle, action: CircleAction) => void;
}) {
  const { t } = useLingui();
  const action = useCircleAction(circle.id);
  const [declining, setDeclining] = useState(false);
  if (circle.allowedActions.length === 0) return null;
  const others = othersOf(circle);

  const run = async (name: CircleAction) => {
    try {
      const next = await action.mutateAsync(name);
      toast({
        title:
          name === 'decline'
            ? t`Circle Declined`
            : next.status === 'accepted'
              ? t`Everyone Accepted: Circle Started`
              : t`Circle Accepted`,
      });
      setDeclining(false);
      // After the closing dialog has put the focus back (on a button that may be gone now).
      setTimeout(() => onDone?.(next, name), 0);
    } catch (error) {
      setDeclining(false);
      toast({
        title: t`Error`,
        description: serverMessageOf(error, t`That did not work. Please try again.`),
        variant: 'destructive',
      });
    }
  };

  return (
    <div className="flex flex-wrap gap-2">
      {circle.allowedActions.includes('accept') ? (
        <Button disabled={action.isPending} onClick={() => void run('accept')}>
          <Trans>Accept</Trans>
        </Button>
      ) : null}
      {circle.allowedActions.includes('decline') ? (
        <Dialog open={declining} onOpenChange={setDeclining}>
          <DialogTrigger asChild>
            <Button variant="secondary" disabled={action.isPending}>
              <Trans>Decline</Trans>
            </Button>
          </DialogTrigger>
          <DialogContent
            title={t`Decline this trade circle?`}
            description={
              circle.steps.length > 2
                ? t`The circle dissolves for everyone in it, and ${others} are told. Your items stay listed.`
                : t`The circle dissolves for everyone in it, and ${others} is told. Your items stay listed.`
            }
          >
            <div className="flex flex-wrap justify-end gap-2">
              <Button variant="secondary" onClick={() => setDeclining(false)}>
                <Trans>Keep Circle</Trans>
              </Button>
              <Button variant="destructive" disabled={action.isPending} onClick={() => void run('decline')}>
                {action.isPending ? t`Declining...` : t`Decline Circle`}
              </Button>
            </div>
          </DialogContent>
        </Dialog>
      ) : null}
    </div>
  );
}
