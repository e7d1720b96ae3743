import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState } from 'react';
import type { CurrentUser } from '#common/schemas/auth.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { Dialog, DialogContent } from '#web/components/ui/dialog.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { PasswordInput } from '#web/components/ui/password-input.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { serverMessageOf } from '#web/lib/api-client.ts';
import { useDeleteAccount, useDownloadData } from '../api/account-api';

/** Download my data, and delete my account after re-entering the password (ADR 025). */
export function YourDataSection({ user }: { user: CurrentUser }) {
  const { t } = useLingui();
  const download = useDownloadData();
  const remove = useDeleteAccount();
  const [open, setOpen] = useState(false);
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<string | null>(null);
  const fieldId = useId();
  const errorId = useId();
  const confirmWith = user.hasPassword ? 'password' : user.email ? 'email' : null;
  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold text-slate-900">
        <Trans>Your data</Trans>
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        <Trans>
          One file with your account, listings, wants, saved items, barters, messages and ratings.
        </Trans>
      </p>
      <div className="mt-4 flex flex-wrap gap-3">
        <Button
          variant="secondary"
          disabled={download.isPending}
          onClick={() =>
            download.mutate(undefined, {
              onError: (failure) =>
                toast({
                  title: t`Download failed`,
                  description: serverMessageOf(failure, t`Please try again.`),
                  variant: 'destructive',
                }),
            })
          }
        >
          {download.isPending ? t`Preparing...` : t`Download my data`}
        </Button>
        <Button variant="destructive" onClick={() => setOpen(true)}>
          <Trans>Delete my account</Trans>
        </Button>
      </div>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent
          title={t`Delete your account?`}
          description={t`Your listings, wants and unfinished barters go for good. Completed trades stay in your neighbors' histories as 'Former member', and your messages stay in their conversations without your name.`}
        >
          <form
            className="grid gap-4"
            onSubmit={(event) => {
              event.preventDefault();
              setError(null);
              remove.mutate(confirmWith === 'password' ? { password: secret } : { email: secret }, {
                onError: (failure) => setError(serverMessageOf(failure, t`Please try again.`)),
              });
            }}
          >
            {confirmWith && (
              <div className="grid gap-1">
                <Label htmlFor={fieldId}>
                  {confirmWith === 'password' ? t`Your password` : t`Your email address`}
                </Label>
                {confirmWith === 'password' ? (
                  <PasswordInput
                    id={fieldId}
                    autoComplete="current-password"
                    value={secret}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? errorId : undefined}
                    onChange={(event) => setSecret(event.target.value)}
                  />
                ) : (
                  <Input
                    id={fieldId}
                    type="email"
                    value={secret}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? errorId : undefined}
                    onChange={(event) => setSecret(event.target.value)}
                  />
                )}
                {error && (
                  <p id={errorId} className="text-sm text-red-700" role="alert">
                    {error}
                  </p>
                )}
              </div>
            )}
            <div className="flex justify-end gap-2">
              <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
                <Trans>Cancel</Trans>
              </Button>
              <Button type="submit" variant="destructive" disabled={remove.isPending}>
                {remove.isPending ? t`Deleting...` : t`Delete my account`}
              </Button>
            </div>
          </form>
        </DialogContent>
      </Dialog>
    </Card>
  );
}
