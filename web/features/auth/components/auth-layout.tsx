import type { ReactNode } from 'react';
import { Logo } from '#web/components/layout/logo.tsx';
import { Card } from '#web/components/ui/card.tsx';

/** The frame of the sign-in screens: logo, heading, subheading and a card. */
export function AuthLayout({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle: string;
  children: ReactNode;
}) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-6 bg-gradient-to-br from-brand-50 to-amber-50 px-4 py-10">
      <Logo />
      <Card className="w-full max-w-md p-6 sm:p-8">
        <div className="mb-6 text-center">
          <h1 className="text-2xl font-bold text-slate-900">{title}</h1>
          <p className="mt-1 text-sm text-slate-600">{subtitle}</p>
        </div>
        {children}
      </Card>
    </main>
  );
}
