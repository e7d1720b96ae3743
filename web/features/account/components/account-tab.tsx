import { zodResolver } from '@hookform/resolvers/zod';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { type ReactNode, useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  AUTH_ERROR_CODES,
  type ChangeEmailInput,
  type ChangePasswordFormValues,
  type CurrentUser,
  changeEmailSchema,
  changePasswordFormSchema,
  PASSWORD_REFUSED_CODES,
} from '#common/schemas/auth.ts';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx';
import { FormField } from '#web/components/ui/form-field.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { PasswordInput } from '#web/components/ui/password-input.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { i18n } from '#web/i18n/i18n.ts';
import { LanguageSelect } from '#web/i18n/language-select.tsx';
import { ApiError, serverMessageOf } from '#web/lib/api-client.ts';
import {
  useChangeEmail,
  useChangePassword,
  useEndSession,
  useResendVerification,
  useSessions,
  useSignOutEverywhere,
} from '../api/account-api';
import { day, deviceName } from '../device-name';
import { NotificationChannelsSection } from './notification-channels-section';
import { PushSection } from './push-section';
import { SavedSearchesSection } from './saved-searches-section';
import { YourDataSection } from './your-data-section';

const TRY_AGAIN = msg`Please try again.`;

const failed = (title: string, error: unknown) =>
  toast({ title, description: serverMessageOf(error, i18n._(TRY_AGAIN)), variant: 'destructive' });

/** A wrong current password belongs under its field; anything else is a toast. */
function fieldOrToast(
  error: unknown,
  title: string,
  setField: (code: string, message: string) => boolean,
): void {
  if (
    error instanceof ApiError &&
    error.code &&
    error.serverMessage &&
    setField(error.code, error.serverMessage)
  )
    return;
  failed(title, error);
}

function EmailSection({ user }: { user: CurrentUser }) {
  const { t } = useLingui();
  const resend = useResendVerification();
  const change = useChangeEmail();
  const form = useForm<ChangeEmailInput>({
    resolver: zodResolver(changeEmailSchema),
    defaultValues: { email: '', password: '' },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit((values) =>
    change.mutate(values, {
      onSuccess: (message) => {
        form.reset({ email: '', password: '' });
        toast({ title: t`Check your new inbox`, description: message });
      },
      onError: (error) =>
        fieldOrToast(error, t`Could not change your email`, (code, message) => {
          if (code === AUTH_ERROR_CODES.currentPasswordWrong)
            form.setError('password', { message }, { shouldFocus: true });
          else if (code === AUTH_ERROR_CODES.emailTaken || code === AUTH_ERROR_CODES.emailUnchanged)
            form.setError('email', { message }, { shouldFocus: true });
          else return false;
          return true;
        }),
    }),
  );
  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold text-slate-900">
        <Trans>Email address</Trans>
      </h2>
      <p className="mt-2 flex flex-wrap items-center gap-2 text-slate-800">
        <span className="break-all">{user.email}</span>
        {user.emailVerified ? (
          <Badge tone="success">
            <Trans>Verified</Trans>
          </Badge>
        ) : (
          <Badge tone="accent">
            <Trans>Not verified yet</Trans>
          </Badge>
        )}
      </p>
      {!user.emailVerified && (
        <Button
          variant="secondary"
          className="mt-3"
          disabled={resend.isPending}
          onClick={() => resend.mutate()}
        >
          <Trans>Resend Confirmation Link</Trans>
        </Button>
      )}
      <form onSubmit={onSubmit} noValidate className="mt-6 grid gap-4 sm:max-w-md">
        <h3 className="font-medium text-slate-900">
          <Trans>Change email</Trans>
        </h3>
        <FormField label={t`New Email`} error={errors.email?.message}>
          <Input type="email" autoComplete="email" {...form.register('email')} />
        </FormField>
        {user.hasPassword && (
          <FormField label={t`Current Password`} error={errors.password?.message}>
            <PasswordInput autoComplete="current-password" {...form.register('password')} />
          </FormField>
        )}
        <Button type="submit" disabled={change.isPending} className="justify-self-start">
          {change.isPending ? t`Sending...` : t`Send Confirmation Link`}
        </Button>
      </form>
    </Card>
  );
}

function PasswordSection({ user }: { user: CurrentUser }) {
  const { t } = useLingui();
  const change = useChangePassword();
  const form = useForm<ChangePasswordFormValues>({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(({ currentPassword, newPassword }) =>
    change.mutate(
      { newPassword, ...(user.hasPassword ? { currentPassword } : {}) },
      {
        onSuccess: (message) => {
          form.reset();
          toast({
            title: t`Password changed`,
            description: t`${message} You were signed out on your other devices.`,
          });
        },
        onError: (error) =>
          fieldOrToast(error, t`Could not change your password`, (code, message) => {
            if (code === AUTH_ERROR_CODES.currentPasswordWrong) {
              form.setError('currentPassword', { message }, { shouldFocus: true });
            } else if (PASSWORD_REFUSED_CODES.includes(code)) {
              form.setError('newPassword', { message }, { shouldFocus: true });
            } else return false;
            return true;
          }),
      },
    ),
  );
  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold text-slate-900">
        <Trans>Password</Trans>
      </h2>
      <form onSubmit={onSubmit} noValidate className="mt-4 grid gap-4 sm:max-w-md">
        {user.hasPassword ? (
          <FormField label={t`Current Password`} error={errors.currentPassword?.message}>
            <PasswordInput autoComplete="current-password" {...form.register('currentPassword')} />
          </FormField>
        ) : (
          <p className="text-sm text-slate-600">
            <Trans>You sign in with Google. Set a password to sign in with your email too.</Trans>
          </p>
        )}
        <FormField label={t`New Password`} error={errors.newPassword?.message}>
          <PasswordInput autoComplete="new-password" {...form.register('newPassword')} />
        </FormField>
        <FormField label={t`Confirm New Password`} error={errors.confirmPassword?.message}>
          <PasswordInput autoComplete="new-password" {...form.register('confirmPassword')} />
        </FormField>
        <Button type="submit" disabled={change.isPending} className="justify-self-start">
          {change.isPending ? t`Saving...` : t`Change Password`}
        </Button>
      </form>
    </Card>
  );
}

function SessionsSection() {
  const { t } = useLingui();
  const sessions = useSessions();
  const end = useEndSession();
  const everywhere = useSignOutEverywhere();
  const [confirming, setConfirming] = useState(false);
  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold text-slate-900">
        <Trans>Where you're signed in</Trans>
      </h2>
      {sessions.isError && (
        <p className="mt-2 text-sm text-red-700">
          <Trans>Could not load your sessions.</Trans>
        </p>
      )}
      <ul className="mt-4 divide-y divide-slate-200" aria-label={t`Sessions`}>
        {(sessions.data ?? []).map((session) => {
          const device = deviceName(session.device);
          const signedIn = day(session.signedInAt);
          const active = day(session.lastActiveAt);
          return (
            <li key={session.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div>
                <p className="font-medium text-slate-900">
                  {device}
                  {session.current && (
                    <Badge tone="brand" className="ml-2">
                      <Trans>This device</Trans>
                    </Badge>
                  )}
                </p>
                <p className="text-sm text-slate-600">
                  <Trans>
                    Signed in {signedIn} · active {active}
                  </Trans>
                </p>
              </div>
              {!session.current && (
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={end.isPending}
                  aria-label={t`Sign out ${device}, signed in ${signedIn}`}
                  onClick={() =>
                    end.mutate(session.id, {
                      onSuccess: () =>
                        toast({ title: t`Signed out`, description: t`${device} is signed out.` }),
                      onError: (error) => failed(t`Could not sign out that device`, error),
                    })
                  }
                >
                  <Trans>Sign out</Trans>
                </Button>
              )}
            </li>
          );
        })}
      </ul>
      <Button variant="destructive" className="mt-4" onClick={() => setConfirming(true)}>
        <Trans>Sign out everywhere</Trans>
      </Button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t`Sign out everywhere?`}
        description={t`Every device, this one included, will need your password again.`}
        confirmLabel={t`Sign out everywhere`}
        pending={everywhere.isPending}
        onConfirm={() =>
          everywhere.mutate(undefined, { onError: (error) => failed(t`Could not sign out`, error) })
        }
      />
    </Card>
  );
}

/** The language menu, as in the footer (ADR 036): the choice is kept in this browser. */
function LanguageSection() {
  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold text-slate-900">
        <Trans>Language</Trans>
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        <Trans>Choose the language Barterhood shows in this browser.</Trans>
      </p>
      <LanguageSelect className="mt-4 block text-sm text-slate-800" />
    </Card>
  );
}

/** The Account tab (ADR 024): address and its verification, password, and where the member is signed in. */
export function AccountTab({
  user,
  blockedMembers,
}: {
  user: CurrentUser;
  /** The Blocked members section (web/features/safety), put in by the profile page (ADR 068). */
  blockedMembers?: ReactNode;
}) {
  return (
    <div className="grid gap-6">
      {user.isDemo ? (
        <Card className="p-6">
          <h2 className="text-lg font-semibold text-slate-900">
            <Trans>Demo account</Trans>
          </h2>
          <p className="mt-2 text-slate-700">
            <Trans>
              Demo accounts have no email address or password. Create an account to keep your trades.
            </Trans>
          </p>
        </Card>
      ) : (
        <>
          <EmailSection user={user} />
          <PasswordSection user={user} />
        </>
      )}
      <NotificationChannelsSection />
      <PushSection />
      <SavedSearchesSection />
      <LanguageSection />
      <SessionsSection />
      {blockedMembers}
      <YourDataSection user={user} />
    </div>
  );
}
