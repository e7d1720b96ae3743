import { Ban } from 'lucide-react';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { paths } from '../../../app/paths';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { toast, toastAfterNavigation } from '../../../components/ui/use-toast';
import { serverMessageOf } from '../../../lib/api-client';
import { useBlock } from '../api/safety-api';

/** "Block" on a member's page (ADR 025), after a confirmation; then home, without them. */
export function BlockButton({ memberId, name }: { memberId: string; name: string }) {
  const [open, setOpen] = useState(false);
  const block = useBlock();
  const [, navigate] = useLocation();
  return (
    <>
      <Button variant="ghost" size="sm" onClick={() => setOpen(true)}>
        <Ban className="h-4 w-4" aria-hidden="true" />
        Block
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={`Block ${name}?`}
        description={`You won't see each other's listings or pages, and neither of you can propose or write to the other. Pending proposals between you are withdrawn. You can unblock ${name} in your Account settings.`}
        confirmLabel="Block"
        pending={block.isPending}
        onConfirm={() =>
          // mutateAsync: this page turns to "Member not found" when it is read again, unmounting the button.
          block.mutateAsync(memberId).then(
            () => {
              toastAfterNavigation({
                title: `${name} is blocked`,
                description: 'You can unblock them in your Account settings.',
              });
              navigate(paths.home);
            },
            (error: unknown) =>
              toast({
                title: 'Could not block',
                description: serverMessageOf(error, 'Please try again.'),
                variant: 'destructive',
              }),
          )
        }
      />
    </>
  );
}
