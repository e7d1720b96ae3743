import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { BIO_MAX_LENGTH } from '#common/constants.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { Textarea } from '#web/components/ui/textarea.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { apiRequest, serverMessageOf } from '#web/lib/api-client.ts';
import { useMember } from '#web/lib/member.ts';
import { memberKeys } from '#web/lib/query-keys.ts';

/** "About you": a few words on the member's page, moderated like listings (PUT /api/user/bio). */
export function BioCard({ userId }: { userId: string }) {
  const { t } = useLingui();
  const member = useMember(userId);
  // What the member typed, once they have: a later read of their page (after a photo is saved, say)
  // shows in the box only until then, never over their words.
  const [draft, setDraft] = useState<string | null>(null);
  const text = draft ?? member.data?.bio ?? '';
  const [error, setError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const id = useId();
  const errorId = useId();
  const save = useMutation({
    mutationFn: async (bio: string) => {
      await apiRequest('PUT', '/api/user/bio', { bio });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: memberKeys.all }),
  });
  return (
    <Card className="p-6">
      <form
        className="grid gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          setError(null);
          save.mutate(text, {
            onSuccess: () => toast({ title: t`Saved`, description: t`Your page shows your new words.` }),
            onError: (failure) => setError(serverMessageOf(failure, t`Please try again.`)),
          });
        }}
      >
        <Label htmlFor={id} className="text-lg font-semibold text-slate-900">
          <Trans>About you</Trans>
        </Label>
        <p className="text-sm text-slate-600">
          <Trans>A few words neighbors see on your page: what you trade, what you're good at.</Trans>
        </p>
        <Textarea
          id={id}
          value={text}
          maxLength={BIO_MAX_LENGTH}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(event) => setDraft(event.target.value)}
        />
        {error && (
          <p id={errorId} role="alert" className="text-sm text-red-700">
            {error}
          </p>
        )}
        <Button type="submit" disabled={save.isPending} className="justify-self-start">
          {save.isPending ? t`Saving...` : t`Save`}
        </Button>
      </form>
    </Card>
  );
}
