import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import { Card } from '#web/components/ui/card.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Switch } from '#web/components/ui/switch.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { serverMessageOf } from '#web/lib/api-client.ts';
import { type MailPreferences, useMailPreferences, useSetMailPreferences } from '../api/account-api';

/**
 * Which e-mails the member gets about what they missed while away (ADR 026); the proposals' switch
 * also covers the hand-over reminders a day and an hour before an agreed plan (ADR 078) and no-show
 * reports and their answers (ADR 079), and says so.
 */
export function MailPreferencesSection() {
  const { t } = useLingui();
  const preferences = useMailPreferences();
  const save = useSetMailPreferences();
  const ids = { proposals: useId(), messages: useId() };
  const current = preferences.data;
  const toggle = (kind: keyof MailPreferences, on: boolean) => {
    if (!current) return;
    save.mutate(
      { ...current, [kind]: on },
      {
        onError: (error) =>
          toast({
            title: t`Not saved`,
            description: serverMessageOf(error, t`Please try again.`),
            variant: 'destructive',
          }),
      },
    );
  };
  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold text-slate-900">
        <Trans>Email notifications</Trans>
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        <Trans>
          When you haven't had Barterhood open for 10 minutes, we email you what you missed, at most once an
          hour.
        </Trans>
      </p>
      <div className="mt-4 grid gap-3">
        {(
          [
            ['proposals', msg`New proposals, counter-offers, hand-over reminders and no-show reports`],
            ['messages', msg`New messages`],
          ] as const
        ).map(([kind, text]) => (
          <div key={kind} className="flex items-center justify-between gap-3">
            <Label htmlFor={ids[kind]}>{t(text)}</Label>
            <Switch
              id={ids[kind]}
              checked={current?.[kind] ?? true}
              disabled={!current || save.isPending}
              onCheckedChange={(on) => toggle(kind, on)}
            />
          </div>
        ))}
      </div>
    </Card>
  );
}
