import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { useForm } from 'react-hook-form';
import { Link, useSearch } from 'wouter';
import {
  AUTH_ERROR_CODES,
  PASSWORD_REFUSED_CODES,
  type PasswordResetFormValues,
  passwordResetFormSchema,
} from '#common/schemas/auth.ts';
import { Button } from '#web/components/ui/button.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { PasswordInput } from '#web/components/ui/password-input.tsx';
import { toast, toastAfterNavigation } from '#web/components/ui/use-toast.ts';
import { ApiError, serverMessageOf } from '#web/lib/api-client.ts';
import { paths } from '#web/lib/paths.ts';
import { useResetPassword } from '../api/account-api';

/** /reset-password?token=: the new password twice; success signs in here and ends every other session. */
export function ResetPasswordForm() {
  const { t } = useLingui();
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const reset = useResetPassword();
  const form = useForm<PasswordResetFormValues>({
    resolver: zodResolver(passwordResetFormSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });
  const { errors } = form.formState;
  const linkInvalid = reset.error instanceof ApiError && reset.error.code === AUTH_ERROR_CODES.linkInvalid;

  const onSubmit = form.handleSubmit(({ password }) =>
    reset.mutate(
      { token, password },
      {
        onSuccess: () =>
          toastAfterNavigation({
            title: t`Password changed`,
            description: t`You are signed in with your new password, and signed out everywhere else.`,
          }),
        onError: (error) => {
          if (error instanceof ApiError && PASSWORD_REFUSED_CODES.includes(error.code ?? '')) {
            form.setError('password', { message: error.serverMessage ?? '' }, { shouldFocus: true });
            return;
          }
          if (error instanceof ApiError && error.code === AUTH_ERROR_CODES.linkInvalid) return;
          toast({
            title: t`Could not set the password`,
            description: serverMessageOf(error, t`Please try again.`),
            variant: 'destructive',
          });
        },
      },
    ),
  );

  if (!token || linkInvalid) {
    return (
      <div className="grid gap-4 text-center" role="alert">
        <p className="text-slate-700">
          <Trans>This link has expired or was already used. Please ask for a new one.</Trans>
        </p>
        <Button asChild>
          <Link href={paths.forgotPassword}>
            <Trans>Send a New Link</Trans>
          </Link>
        </Button>
      </div>
    );
  }
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <FormField label={t`New Password`} error={errors.password?.message}>
        <PasswordInput autoComplete="new-password" {...form.register('password')} />
      </FormField>
      <FormField label={t`Confirm New Password`} error={errors.confirmPassword?.message}>
        <PasswordInput autoComplete="new-password" {...form.register('confirmPassword')} />
      </FormField>
      <Button type="submit" size="lg" disabled={reset.isPending}>
        {reset.isPending ? t`Saving...` : t`Set New Password`}
      </Button>
    </form>
  );
}
