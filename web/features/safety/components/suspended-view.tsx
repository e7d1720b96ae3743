import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState } from 'react';
import { REPORT_NOTE_MAX } from '#common/constants.ts';
import { Logo } from '#web/components/layout/logo.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { formatDate } from '#web/i18n/format.ts';
import { serverMessageOf } from '#web/lib/api-client.ts';
import { useLogout } from '#web/lib/auth-mutations.ts';
import { useAppeal } from '../api/safety-api';

/** What a suspended member sees instead of the app (ADR 025): the notice, an appeal, and Log out. */
export function SuspendedView({ until }: { until: string }) {
  const appeal = useAppeal();
  const logout = useLogout();
  const [text, setText] = useState('');
  const [sent, setSent] = useState(false);
  const id = useId();
  const { t } = useLingui();
  const date = formatDate(until, { dateStyle: 'long', timeStyle: 'short' });
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-6 bg-slate-50 px-4 py-10">
      <Logo />
      <Card className="grid w-full max-w-lg gap-4 p-6">
        <h1 className="text-2xl font-bold text-slate-900">
          <Trans>Your account is suspended</Trans>
        </h1>
        <p className="text-slate-700">
          <Trans>
            A moderator suspended your account until <strong>{date}</strong> for breaking the Terms. Until
            then your listings are hidden and you can't trade or send messages.
          </Trans>
        </p>
        {sent ? (
          <p role="status" className="text-slate-700">
            <Trans>Your appeal is with the moderators. You'll hear back by notification.</Trans>
          </p>
        ) : (
          <form
            className="grid gap-3"
            onSubmit={(event) => {
              event.preventDefault();
              appeal.mutate(text, {
                onSuccess: () => setSent(true),
                onError: (error) =>
                  toast({
                    title: t`Appeal not sent`,
                    description: serverMessageOf(error, t`Please try again.`),
                    variant: 'destructive',
                  }),
              });
            }}
          >
            <Label htmlFor={id}>
              <Trans>Think this is a mistake? Tell the moderators why.</Trans>
            </Label>
            <Textarea
              id={id}
              value={text}
              maxLength={REPORT_NOTE_MAX}
              onChange={(event) => setText(event.target.value)}
            />
            <Button type="submit" disabled={appeal.isPending || !text.trim()}>
              <Trans>Send Appeal</Trans>
            </Button>
          </form>
        )}
        <Button variant="secondary" onClick={() => logout.mutate()}>
          <Trans>Log out</Trans>
        </Button>
      </Card>
    </main>
  );
}
