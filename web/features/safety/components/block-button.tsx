import { Trans, useLingui } from '@lingui/react/macro';
import { Ban } from 'lucide-react';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx';
import { toast, toastAfterNavigation } from '#web/components/ui/use-toast.ts';
import { serverMessageOf } from '#web/lib/api-client.ts';
import { paths } from '#web/lib/paths.ts';
import { useBlock } from '../api/safety-api';

/** "Block" on a member's page (ADR 025), after a confirmation; then home, without them. */
export function BlockButton({ memberId, name }: { memberId: string; name: string }) {
  const [open, setOpen] = useState(false);
  const block = useBlock();
  const [, navigate] = useLocation();
  const { t } = useLingui();
  return (
    <>
      <Button variant="ghost" size="sm" onClick={() => setOpen(true)}>
        <Ban className="h-4 w-4" aria-hidden="true" />
        <Trans>Block</Trans>
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={t`Block ${name}?`}
        description={t`You won't see each other's listings or pages, and neither of you can propose or write to the other. Pending proposals between you are withdrawn. You can unblock ${name} in your Account settings.`}
        confirmLabel={t`Block`}
        pending={block.isPending}
        onConfirm={() =>
          // mutateAsync: this page turns to "Member not found" when it is read again, unmounting the button.
          block.mutateAsync(memberId).then(
            () => {
              toastAfterNavigation({
                title: t`${name} is blocked`,
                description: t`You can unblock them in your Account settings.`,
              });
              navigate(paths.home);
            },
            (error: unknown) =>
              toast({
                title: t`Could not block`,
                description: serverMessageOf(error, t`Please try again.`),
                variant: 'destructive',
              }),
          )
        }
      />
    </>
  );
}
