import { Trans, useLingui } from '@lingui/react/macro';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { Button } from '#web/components/ui/button.tsx';
import { Input } from '#web/components/ui/input.tsx';
import { Label } from '#web/components/ui/label.tsx';
import { toast, toastAfterNavigation } from '#web/components/ui/use-toast.ts';
import { useDemoLogin } from '#web/lib/auth-mutations.ts';
import { paths } from '#web/lib/paths.ts';
import { useSiteInfo } from '#web/lib/site-info.ts';

/** The demo login form (spec section 2), or a notice when DEMO_LOGIN=false. */
export function DemoLoginForm() {
  const [name, setName] = useState('');
  const demoLogin = useDemoLogin();
  const { t } = useLingui();
  const { data: site } = useSiteInfo();

  if (site && !site.demoLogin) {
    return (
      <div className="grid gap-4 text-center">
        <p role="status" className="rounded-lg bg-amber-50 p-4 text-amber-950">
          <Trans>Demo login is unavailable on this site.</Trans>
        </p>
        <Button asChild>
          <Link href={paths.login}>
            <Trans>Sign In</Trans>
          </Link>
        </Button>
      </div>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      toast({
        title: t`Name Required`,
        description: t`Please enter your name to continue`,
        variant: 'destructive',
      });
      return;
    }
    demoLogin.mutate(
      { name: trimmed },
      {
        onSuccess: () =>
          toastAfterNavigation({
            title: t`Welcome`,
            description: t`You can now start exploring the bartering features.`,
          }),
        onError: () =>
          toast({
            title: t`Login Failed`,
            description: t`Please try again with a valid name.`,
            variant: 'destructive',
          }),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <div className="grid gap-2">
        <Label htmlFor="demo-name">
          <Trans>Your Name</Trans>
        </Label>
        <Input
          id="demo-name"
          autoComplete="name"
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
      </div>
      <Button type="submit" size="lg" disabled={demoLogin.isPending}>
        {demoLogin.isPending ? t`Signing In...` : t`Enter`}
      </Button>
      <div className="grid gap-1 rounded-lg bg-slate-100 p-3 text-xs text-slate-600">
        <p>
          <Trans>This is a demo login for testing. In production, real authentication would be used.</Trans>
        </p>
        {/* DEMO_ACCOUNT_NOTE (components/demo-account-note.tsx), in the active language. */}
        <p>
          <Trans>
            You get a demo account of your own. It has no password: this browser keeps it until you sign out.
          </Trans>
        </p>
      </div>
    </form>
  );
}
