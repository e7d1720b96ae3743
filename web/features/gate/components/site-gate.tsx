import { Trans, useLingui } from '@lingui/react/macro';
import { Lock } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { screenMounted } from '#web/lib/app-started.ts';
import { useVerifyPassword } from '../api/gate';

/** The site password gate (spec section 2): shown before anything else until access is granted. */
export function SiteGate({ onGranted }: { onGranted: () => void }) {
  // The gate is the whole screen while it is locked: it listens once mounted (web/lib/app-started.ts).
  useEffect(screenMounted, []);
  const [password, setPassword] = useState('');
  const verify = useVerifyPassword();
  const { t } = useLingui();
  const blank = password.trim().length === 0;

  // The last try's refusal: it goes when the member tries again, and on success (issue 28), as the
  // page behind the gate keeps the same address and the toaster would keep it on show.
  const refusal = useRef<{ dismiss: () => void } | null>(null);
  const refuse = (shown: { dismiss: () => void }) => {
    refusal.current = shown;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (blank || verify.isPending) return;
    refusal.current?.dismiss();
    refusal.current = null;
    verify.mutate(
      { password },
      {
        onSuccess: onGranted,
        onError: (error) => {
          if (error instanceof ApiError && (error.status === 401 || error.status === 400)) {
            refuse(
              toast({
                title: t`Access Denied`,
                description: t`Incorrect password. Please try again.`,
                variant: 'destructive',
              }),
            );
            setPassword('');
          } else if (error instanceof ApiError && error.status === 429) {
            refuse(
              toast({ title: t`Access Denied`, description: error.serverMessage, variant: 'destructive' }),
            );
          } else {
            refuse(
              toast({
                title: t`Error`,
                description: t`Unable to verify password. Please try again.`,
                variant: 'destructive',
              }),
            );
          }
        },
      },
    );
  };

  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-brand-50 to-amber-50 p-4">
      <Card className="w-full max-w-sm p-8">
        <div className="mb-6 flex flex-col items-center gap-3 text-center">
          <span className="flex h-12 w-12 items-center justify-center rounded-full bg-brand-100 text-brand-800">
            <Lock className="h-6 w-6" aria-hidden="true" />
          </span>
          <h1 className="text-2xl font-bold">Barterhood</h1>
          <p className="text-sm text-slate-600">
            <Trans>This site is private for now. Enter the site password to continue.</Trans>
          </p>
        </div>
        <form onSubmit={submit} className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor="site-password">
              <Trans>Site password</Trans>
            </Label>
            <Input
              id="site-password"
              type="password"
              required
              autoFocus
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          </div>
          <Button type="submit" size="lg" disabled={blank || verify.isPending}>
            {verify.isPending ? t`Verifying...` : t`Enter Site`}
          </Button>
        </form>
      </Card>
    </main>
  );
}
