import { zodResolver } from '@hookform/resolvers/zod';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useSearch } from 'wouter';
import { AUTH_ERROR_CODES, GOOGLE_ERRORS, type LoginInput, loginSchema } from '#common/schemas/auth.ts';
import { GoogleIcon } from '#web/components/layout/google-icon.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { PasswordInput } from '#web/components/ui/password-input.tsx';
import { toast, toastAfterNavigation } from '#web/components/ui/use-toast.ts';
import { i18n } from '#web/i18n/i18n.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { useLogin } from '#web/lib/auth-mutations.ts';
import { paths, serverPaths } from '#web/lib/paths.ts';
import { useSiteInfo } from '#web/lib/site-info.ts';

const GOOGLE_ERROR_TOASTS: Record<string, { title: MessageDescriptor; description: MessageDescriptor }> = {
  [GOOGLE_ERRORS.unavailable]: {
    title: msg`Google sign-in unavailable`,
    description: msg`Google sign-in is not set up on this site. Please sign in with your email instead.`,
  },
  [GOOGLE_ERRORS.failed]: {
    title: msg`Google sign-in failed`,
    description: msg`We could not complete Google sign-in. Please try again or sign in with your email.`,
  },
};

/**
 * Spec section 4 as docs/product.md settles it: only an unknown e-mail leads to registration; a wrong
 * password for an existing account is a failed sign-in (with the "Forgot password?" link).
 */
export function isAccountNotFound(error: unknown): boolean {
  if (error instanceof ApiError) return error.code === AUTH_ERROR_CODES.userNotFound;
  const message = error instanceof Error ? error.message : '';
  return /user-not-found/i.test(message);
}

/** The login screen's form (spec section 2). */
export function LoginForm() {
  const [, navigate] = useLocation();
  const search = useSearch();
  const login = useLogin();
  const { t } = useLingui();
  const { data: site } = useSiteInfo();
  const form = useForm<LoginInput>({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: '', password: '' },
  });
  const { errors } = form.formState;

  useEffect(() => {
    const code = new URLSearchParams(search).get('error');
    const message = code ? GOOGLE_ERROR_TOASTS[code] : undefined;
    if (message)
      toast({
        title: i18n._(message.title),
        description: i18n._(message.description),
        variant: 'destructive',
      });
  }, [search]);

  const onSubmit = form.handleSubmit((values) =>
    login.mutate(values, {
      onSuccess: () =>
        toastAfterNavigation({ title: t`Welcome back!`, description: t`You've successfully logged in.` }),
      onError: (error) => {
        if (isAccountNotFound(error)) {
          toast({
            title: t`Account Not Found`,
            description: t`Let's create your account with this email address`,
          });
          navigate(paths.registerWithEmail(values.email));
        } else {
          toast({
            title: t`Login Failed`,
            description: t`Please check your credentials and try again`,
            variant: 'destructive',
          });
        }
      },
    }),
  );

  return (
    <div className="grid gap-6">
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        <FormField label={t`Email`} error={errors.email?.message}>
          <Input type="email" autoComplete="email" {...form.register('email')} />
        </FormField>
        <FormField label={t`Password`} error={errors.password?.message}>
          <PasswordInput autoComplete="current-password" {...form.register('password')} />
        </FormField>
        <Link
          href={paths.forgotPasswordFor(form.watch('email'))}
          className="-mt-2 justify-self-end text-sm font-medium text-brand-700 underline"
        >
          <Trans>Forgot password?</Trans>
        </Link>
        <Button type="submit" size="lg" disabled={login.isPending}>
          {login.isPending ? t`Signing In...` : t`Sign In`}
        </Button>
      </form>

      {/* Only where Google sign-in is set up (GET /api/site); the button's own words are the divider's. */}
      {site?.googleSignIn ? (
        <>
          <hr className="border-slate-200" />
          <Button
            variant="secondary"
            size="lg"
            onClick={() => window.location.assign(serverPaths.googleSignIn)}
          >
            <GoogleIcon className="h-5 w-5" />
            <Trans>Or continue with Google</Trans>
          </Button>
        </>
      ) : null}

      <section aria-labelledby="new-user" className="rounded-xl bg-brand-50 p-4 text-center">
        <h2 id="new-user" className="font-semibold text-slate-900">
          <Trans>New to Barterhood?</Trans>
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          <Trans>Join neighbors already trading locally</Trans>
        </p>
        <Button asChild variant="secondary" className="mt-3 w-full">
          <Link href={paths.register}>
            <Trans>Create Your Account</Trans>
          </Link>
        </Button>
        {site?.demoLogin ? (
          <p className="mt-3 text-sm text-slate-700">
            <Trans>
              Just looking?{' '}
              <Link href={paths.demoLogin} className="font-medium text-brand-800 underline">
                Try the demo
              </Link>
            </Trans>
          </p>
        ) : null}
      </section>
    </div>
  );
}
