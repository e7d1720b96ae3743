import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from '#web/components/ui/button.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { serverMessageOf } from '#web/lib/api-client.ts';
import { useBlocked, useUnblock } from '../api/safety-api';

/** The Account tab's list of blocked members, each with Unblock (ADR 025). */
export function BlockedMembers() {
  const blocked = useBlocked();
  const unblock = useUnblock();
  const { t } = useLingui();
  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold text-slate-900">
        <Trans>Blocked members</Trans>
      </h2>
      {blocked.data && blocked.data.length === 0 && (
        <p className="mt-2 text-sm text-slate-600">
          <Trans>You haven't blocked anyone.</Trans>
        </p>
      )}
      <ul className="mt-2 divide-y divide-slate-200" aria-label={t`Blocked members`}>
        {(blocked.data ?? []).map((member) => {
          const name = member.name;
          return (
            <li key={member.id} className="flex items-center justify-between gap-3 py-3">
              <span className="font-medium text-slate-900">{member.name}</span>
              <Button
                variant="secondary"
                size="sm"
                disabled={unblock.isPending}
                aria-label={t`Unblock ${name}`}
                onClick={() =>
                  unblock.mutate(member.id, {
                    onSuccess: () => toast({ title: t`Unblocked`, description: t`${name} is unblocked.` }),
                    onError: (error) =>
                      toast({
                        title: t`Could not unblock`,
                        description: serverMessageOf(error, t`Please try again.`),
                        variant: 'destructive',
                      }),
                  })
                }
              >
                <Trans>Unblock</Trans>
              </Button>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
