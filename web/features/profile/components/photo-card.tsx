import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useRef } from 'react';
import type { CurrentUser } from '#common/schemas/auth.ts';
import { Avatar } from '#web/components/ui/avatar.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { apiRequest, serverMessageOf } from '#web/lib/api-client.ts';
import { authKeys, memberKeys } from '#web/lib/query-keys.ts';

/** The profile photo: choose one (the listings' photo pipeline) or remove it (POST/DELETE /api/user/photo). */
export function PhotoCard({ user }: { user: CurrentUser }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: authKeys.user });
    await queryClient.invalidateQueries({ queryKey: memberKeys.all });
  };
  const failed = (error: unknown) =>
    toast({
      title: t`Photo not saved`,
      description: serverMessageOf(error, t`Please try another photo.`),
      variant: 'destructive',
    });
  const upload = useMutation({
    mutationFn: async (file: File) => {
      const form = new FormData();
      form.append('photo', file);
      await apiRequest('POST', '/api/user/photo', form);
    },
    onSuccess: refresh,
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: async () => {
      await apiRequest('DELETE', '/api/user/photo');
    },
    onSuccess: refresh,
    onError: failed,
  });
  return (
    <Card className="flex flex-wrap items-center gap-4 p-6">
      <Avatar
        firstName={user.firstName ?? ''}
        lastName={user.lastName ?? undefined}
        imageUrl={user.profileImageUrl}
        className="h-16 w-16 text-xl"
      />
      <div className="grid gap-2">
        <h2 className="text-lg font-semibold text-slate-900">
          <Trans>Profile photo</Trans>
        </h2>
        <div className="flex flex-wrap gap-2">
          <input
            ref={input}
            id={inputId}
            type="file"
            accept="image/jpeg,image/png,image/webp"
            className="sr-only"
            tabIndex={-1}
            aria-label={t`Choose a profile photo`}
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) upload.mutate(file);
              event.target.value = '';
            }}
          />
          <Button variant="secondary" disabled={upload.isPending} onClick={() => input.current?.click()}>
            {upload.isPending ? t`Uploading...` : user.profileImageUrl ? t`Change Photo` : t`Add a Photo`}
          </Button>
          {user.profileImageUrl && (
            <Button variant="ghost" disabled={remove.isPending} onClick={() => remove.mutate()}>
              <Trans>Remove Photo</Trans>
            </Button>
          )}
        </div>
      </div>
    </Card>
  );
}
