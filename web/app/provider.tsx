import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Toaster } from '../components/ui/toaster';
import { createQueryClient } from '../lib/query-client';

/**
 * App-wide providers: data fetching and the toast region. Tooltips bring their own provider with the
 * spec's delays (components/ui/tooltip.tsx), so Radix's positioning code loads only with a screen
 * that shows one (ADR 033).
 */
export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toaster />
    </QueryClientProvider>
  );
}
