import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { paths } from '../../../app/paths';
import { DEMO_ACCOUNT_NOTE } from '../../../components/demo-account-note';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { toast, toastAfterNavigation } from '../../../components/ui/use-toast';
import { useSiteInfo } from '../../site/api/site-info';
import { useDemoLogin } from '../api/auth-mutations';

/** The demo login form (spec section 2), or a notice when DEMO_LOGIN=false. */
export function DemoLoginForm() {
  const [name, setName] = useState('');
  const demoLogin = useDemoLogin();
  const { data: site } = useSiteInfo();

  if (site && !site.demoLogin) {
    return (
      <div className="grid gap-4 text-center">
        <p role="status" className="rounded-lg bg-amber-50 p-4 text-amber-950">
          Demo login is unavailable on this site.
        </p>
        <Button asChild>
          <Link href={paths.login}>Sign In</Link>
        </Button>
      </div>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      toast({
        title: 'Name Required',
        description: 'Please enter your name to continue',
        variant: 'destructive',
      });
      return;
    }
    demoLogin.mutate(
      { name: trimmed },
      {
        onSuccess: () =>
          toastAfterNavigation({
            title: 'Welcome',
            description: 'You can now start exploring the bartering features.',
          }),
        onError: () =>
          toast({
            title: 'Login Failed',
            description: 'Please try again with a valid name.',
            variant: 'destructive',
          }),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <div className="grid gap-2">
        <Label htmlFor="demo-name">Your Name</Label>
        <Input
          id="demo-name"
          autoComplete="name"
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
      </div>
      <Button type="submit" size="lg" disabled={demoLogin.isPending}>
        {demoLogin.isPending ? 'Signing In...' : 'Enter'}
      </Button>
      <div className="grid gap-1 rounded-lg bg-slate-100 p-3 text-xs text-slate-600">
        <p>This is a demo login for testing. In production, real authentication would be used.</p>
        <p>{DEMO_ACCOUNT_NOTE}</p>
      </div>
    </form>
  );
}
