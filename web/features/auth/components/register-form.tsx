import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { useForm } from 'react-hook-form';
import { Link, useSearch } from 'wouter';
import {
  AUTH_MESSAGES,
  PASSWORD_REFUSED_CODES,
  type RegisterFormValues,
  registerFormSchema,
} from '#common/schemas/auth.ts';
import { Button } from '#web/components/ui/button.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { PasswordInput } from '#web/components/ui/password-input.tsx';
import { toast, toastAfterNavigation } from '#web/components/ui/use-toast.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { useRegister } from '#web/lib/auth-mutations.ts';
import { paths } from '#web/lib/paths.ts';

/** The register screen's form (spec section 2); ?email= prefills the e-mail field. */
export function RegisterForm() {
  const search = useSearch();
  const register = useRegister();
  const { t } = useLingui();
  const form = useForm<RegisterFormValues>({
    resolver: zodResolver(registerFormSchema),
    defaultValues: {
      firstName: '',
      lastName: '',
      email: new URLSearchParams(search).get('email') ?? '',
      password: '',
      confirmPassword: '',
    },
  });
  const { errors } = form.formState;

  // The confirmation is checked here and never sent (spec section 5).
  const onSubmit = form.handleSubmit(({ confirmPassword: _confirm, ...values }) =>
    register.mutate(values, {
      onSuccess: () =>
        toastAfterNavigation({
          title: t`Welcome!`,
          description: t`Your account has been created successfully.`,
        }),
      onError: (error) => {
        const taken = error instanceof ApiError && error.status === 409;
        // Password strength is judged on the server only (zxcvbn and its lists are too big for the
        // bundle; ADR 055): its reason is shown under the password field like the form's own checks.
        const refused = error instanceof ApiError && PASSWORD_REFUSED_CODES.includes(error.code ?? '');
        if (refused) {
          form.setError(
            'password',
            { message: error.serverMessage ?? AUTH_MESSAGES.passwordTooCommon },
            { shouldFocus: true },
          );
        }
        toast({
          title: t`Registration Failed`,
          description:
            (taken || refused) && error.serverMessage
              ? error.serverMessage
              : t`Unable to create account. Please try again.`,
          variant: 'destructive',
        });
      },
    }),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label={t`First Name`} error={errors.firstName?.message}>
          <Input autoComplete="given-name" {...form.register('firstName')} />
        </FormField>
        <FormField label={t`Last Name`} error={errors.lastName?.message}>
          <Input autoComplete="family-name" {...form.register('lastName')} />
        </FormField>
      </div>
      <FormField label={t`Email`} error={errors.email?.message}>
        <Input type="email" autoComplete="email" {...form.register('email')} />
      </FormField>
      <FormField label={t`Password`} error={errors.password?.message}>
        <PasswordInput autoComplete="new-password" {...form.register('password')} />
      </FormField>
      <FormField label={t`Confirm Password`} error={errors.confirmPassword?.message}>
        <PasswordInput autoComplete="new-password" {...form.register('confirmPassword')} />
      </FormField>
      <Button type="submit" size="lg" disabled={register.isPending}>
        {register.isPending ? t`Creating Account...` : t`Create Account`}
      </Button>
      <p className="text-center text-sm text-slate-600">
        <Trans>
          Already have an account?{' '}
          <Link href={paths.login} className="font-medium text-brand-800 underline-offset-4 hover:underline">
            Sign in
          </Link>
        </Trans>
      </p>
    </form>
  );
}
