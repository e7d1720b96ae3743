import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  AUTH_ERROR_CODES,
  type ChangeEmailInput,
  type ChangePasswordFormValues,
  type CurrentUser,
  changeEmailSchema,
  changePasswordFormSchema,
} from '../../../../common/schemas/auth';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { PasswordInput } from '../../../components/ui/password-input';
import { toast } from '../../../components/ui/use-toast';
import { ApiError, serverMessageOf } from '../../../lib/api-client';
import { BlockedMembers } from '../../safety/components/blocked-members';
import {
  useChangeEmail,
  useChangePassword,
  useEndSession,
  useResendVerification,
  useSessions,
  useSignOutEverywhere,
} from '../api/account-api';
import { MailPreferencesSection } from './mail-preferences-section';
import { YourDataSection } from './your-data-section';

const failed = (title: string, error: unknown) =>
  toast({ title, description: serverMessageOf(error, 'Please try again.'), variant: 'destructive' });

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
        toast({ title: 'Check your new inbox', description: message });
      },
      onError: (error) =>
        fieldOrToast(error, 'Could not change your email', (code, message) => {
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
      <h2 className="text-lg font-semibold text-slate-900">Email address</h2>
      <p className="mt-2 flex flex-wrap items-center gap-2 text-slate-800">
        <span className="break-all">{user.email}</span>
        {user.emailVerified ? (
          <Badge tone="success">Verified</Badge>
        ) : (
          <Badge tone="accent">Not verified yet</Badge>
        )}
      </p>
      {!user.emailVerified && (
        <Button
          variant="secondary"
          className="mt-3"
          disabled={resend.isPending}
          onClick={() => resend.mutate()}
        >
          Resend Confirmation Link
        </Button>
      )}
      <form onSubmit={onSubmit} noValidate className="mt-6 grid gap-4 sm:max-w-md">
        <h3 className="font-medium text-slate-900">Change email</h3>
        <FormField label="New Email" error={errors.email?.message}>
          <Input type="email" autoComplete="email" {...form.register('email')} />
        </FormField>
        {user.hasPassword && (
          <FormField label="Current Password" error={errors.password?.message}>
            <PasswordInput autoComplete="current-password" {...form.register('password')} />
          </FormField>
        )}
        <Button type="submit" disabled={change.isPending} className="justify-self-start">
          {change.isPending ? 'Sending...' : 'Send Confirmation Link'}
        </Button>
      </form>
    </Card>
  );
}

function PasswordSection({ user }: { user: CurrentUser }) {
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
            title: 'Password changed',
            description: `${message} You were signed out on your other devices.`,
          });
        },
        onError: (error) =>
          fieldOrToast(error, 'Could not change your password', (code, message) => {
            if (code === AUTH_ERROR_CODES.currentPasswordWrong) {
              form.setError('currentPassword', { message }, { shouldFocus: true });
            } else if (code === AUTH_ERROR_CODES.passwordTooCommon) {
              form.setError('newPassword', { message }, { shouldFocus: true });
            } else return false;
            return true;
          }),
      },
    ),
  );
  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold text-slate-900">Password</h2>
      <form onSubmit={onSubmit} noValidate className="mt-4 grid gap-4 sm:max-w-md">
        {user.hasPassword ? (
          <FormField label="Current Password" error={errors.currentPassword?.message}>
            <PasswordInput autoComplete="current-password" {...form.register('currentPassword')} />
          </FormField>
        ) : (
          <p className="text-sm text-slate-600">
            You sign in with Google. Set a password to sign in with your email too.
          </p>
        )}
        <FormField label="New Password" error={errors.newPassword?.message}>
          <PasswordInput autoComplete="new-password" {...form.register('newPassword')} />
        </FormField>
        <FormField label="Confirm New Password" error={errors.confirmPassword?.message}>
          <PasswordInput autoComplete="new-password" {...form.register('confirmPassword')} />
        </FormField>
        <Button type="submit" disabled={change.isPending} className="justify-self-start">
          {change.isPending ? 'Saving...' : 'Change Password'}
        </Button>
      </form>
    </Card>
  );
}

const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

function SessionsSection() {
  const sessions = useSessions();
  const end = useEndSession();
  const everywhere = useSignOutEverywhere();
  const [confirming, setConfirming] = useState(false);
  return (
    <Card className="p-6">
      <h2 className="text-lg font-semibold text-slate-900">Where you're signed in</h2>
      {sessions.isError && <p className="mt-2 text-sm text-red-700">Could not load your sessions.</p>}
      <ul className="mt-4 divide-y divide-slate-200" aria-label="Sessions">
        {(sessions.data ?? []).map((session) => (
          <li key={session.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
            <div>
              <p className="font-medium text-slate-900">
                {session.device}
                {session.current && (
                  <Badge tone="brand" className="ml-2">
                    This device
                  </Badge>
                )}
              </p>
              <p className="text-sm text-slate-600">
                Signed in {day.format(new Date(session.signedInAt))} · active{' '}
                {day.format(new Date(session.lastActiveAt))}
              </p>
            </div>
            {!session.current && (
              <Button
                variant="secondary"
                size="sm"
                disabled={end.isPending}
                aria-label={`Sign out ${session.device}, signed in ${day.format(new Date(session.signedInAt))}`}
                onClick={() =>
                  end.mutate(session.id, {
                    onSuccess: () =>
                      toast({ title: 'Signed out', description: `${session.device} is signed out.` }),
                    onError: (error) => failed('Could not sign out that device', error),
                  })
                }
              >
                Sign out
              </Button>
            )}
          </li>
        ))}
      </ul>
      <Button variant="destructive" className="mt-4" onClick={() => setConfirming(true)}>
        Sign out everywhere
      </Button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Sign out everywhere?"
        description="Every device, this one included, will need your password again."
        confirmLabel="Sign out everywhere"
        pending={everywhere.isPending}
        onConfirm={() =>
          everywhere.mutate(undefined, { onError: (error) => failed('Could not sign out', error) })
        }
      />
    </Card>
  );
}

/** The Account tab (ADR 024): address and its verification, password, and where the member is signed in. */
export function AccountTab({ user }: { user: CurrentUser }) {
  return (
    <div className="grid gap-6">
      {user.isDemo ? (
        <Card className="p-6">
          <h2 className="text-lg font-semibold text-slate-900">Demo account</h2>
          <p className="mt-2 text-slate-700">
            Demo accounts have no email address or password. Create an account to keep your trades.
          </p>
        </Card>
      ) : (
        <>
          <EmailSection user={user} />
          <MailPreferencesSection />
          <PasswordSection user={user} />
        </>
      )}
      <SessionsSection />
      <BlockedMembers />
      <YourDataSection user={user} />
    </div>
  );
}
