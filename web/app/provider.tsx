import { I18nProvider, useLingui } from '@lingui/react';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Fragment, type ReactNode, useState } from 'react';
import { FeatureSlotsProvider } from '../components/feature-slots';
import { Toaster } from '../components/ui/toaster';
import { i18n } from '../i18n/i18n';
import { createQueryClient } from '../lib/query-client';
import { featureSlots } from './feature-slots';

/**
 * App-wide providers: the language (Lingui), data fetching, what features lend each other's screens
 * (web/app/feature-slots.ts) and the toast region. Tooltips bring their own provider with the
 * spec's delays (components/ui/tooltip.tsx), so Radix's positioning code loads only with a screen
 * that shows one (ADR 033).
 */
export function AppProvider({
  children,
  queryClient: given,
}: {
  children: ReactNode;
  queryClient?: QueryClient;
}) {
  const [queryClient] = useState(() => given ?? createQueryClient());
  return (
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <FeatureSlotsProvider slots={featureSlots}>
          <InActiveLanguage>
            {children}
            <Toaster />
          </InActiveLanguage>
        </FeatureSlotsProvider>
      </QueryClientProvider>
    </I18nProvider>
  );
}

/**
 * Everything below renders again from scratch when the language changes (ADR 036), so texts made
 * outside React's render (toasts, formatters) follow too; fetched data stays in the query cache.
 */
export function InActiveLanguage({ children }: { children: ReactNode }) {
  const { i18n: active } = useLingui();
  return <Fragment key={active.locale}>{children}</Fragment>;
}
