import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearch } from 'wouter';
import { type PasswordResetRequestInput, passwordResetRequestSchema } from '#common/schemas/auth.ts';
import { Button } from '#web/components/ui/button.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { serverMessageOf } from '#web/lib/api-client.ts';
import { paths } from '#web/lib/paths.ts';
import { useRequestPasswordReset } from '../api/account-api';

/** /forgot-password: the address to send a reset link to; ?email= prefills it (from the login form). */
export function ForgotPasswordForm() {
  const { t } = useLingui();
  const search = useSearch();
  const request = useRequestPasswordReset();
  const [sent, setSent] = useState<string | null>(null);
  const form = useForm<PasswordResetRequestInput>({
    resolver: zodResolver(passwordResetRequestSchema),
    defaultValues: { email: new URLSearchParams(search).get('email') ?? '' },
  });
  const onSubmit = form.handleSubmit(({ email }) =>
    request.mutate(email, {
      onSuccess: (message) => setSent(message),
      onError: (error) =>
        toast({
          title: t`Could not send the link`,
          description: serverMessageOf(error, t`Please try again in a moment.`),
          variant: 'destructive',
        }),
    }),
  );

  if (sent) {
    return (
      <div className="grid gap-4 text-center" role="status">
        <p className="text-slate-700">{sent}</p>
        <p className="text-sm text-slate-600">
          <Trans>The link works for 30 minutes. Check your spam folder if it does not arrive.</Trans>
        </p>
        <Button asChild variant="secondary">
          <Link href={paths.login}>
            <Trans>Back to Sign In</Trans>
          </Link>
        </Button>
      </div>
    );
  }
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <FormField label={t`Email`} error={form.formState.errors.email?.message}>
        <Input type="email" autoComplete="email" {...form.register('email')} />
      </FormField>
      <Button type="submit" size="lg" disabled={request.isPending}>
        {request.isPending ? t`Sending...` : t`Send Reset Link`}
      </Button>
      <Link href={paths.login} className="text-center text-sm font-medium text-brand-700 underline">
        <Trans>Back to Sign In</Trans>
      </Link>
    </form>
  );
}
