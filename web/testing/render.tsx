import { I18nProvider } from '@lingui/react';
import { notifyManager, QueryClientProvider, type QueryKey, useQueryClient } from '@tanstack/react-query';
import { type RenderResult, render } from '@testing-library/react';
import { type ReactElement, useCallback, useSyncExternalStore } from 'react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { featureSlots } from '../app/feature-slots';
import { FeatureSlotsProvider } from '../components/feature-slots';
import { Toaster } from '../components/ui/toaster';
import { i18n } from '../i18n/i18n';
import { createQueryClient } from '../lib/query-client';

/** Render with the app's providers, at `path` in an in-memory location. */
export function renderWithProviders(ui: ReactElement, { path = '/' }: { path?: string } = {}) {
  const queryClient = createQueryClient();
  const location = memoryLocation({ path, record: true });
  const result: RenderResult = render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <FeatureSlotsProvider slots={featureSlots}>
          <Router hook={location.hook} searchHook={location.searchHook}>
            {ui}
          </Router>
        </FeatureSlotsProvider>
        <Toaster />
      </QueryClientProvider>
    </I18nProvider>,
  );
  return { ...result, queryClient, location };
}

/**
 * A render marker (ADR 069): shows `data-testid="answered"` once the query at `queryKey` holds an answer
 * (that passes `when`, if given). Render it after the component under test: it observes the same cache
 * entry, so React draws both in one commit, and the component's effects for that commit have run when
 * the marker shows. A test awaits it to prove an answer was taken in before asserting that nothing
 * (more) happened.
 */
export function AnswerMarker<T>({ queryKey, when }: { queryKey: QueryKey; when?: (data: T) => boolean }) {
  const queryClient = useQueryClient();
  // The cache's news is handed on in the same batch as the component's own (notifyManager), never earlier.
  const subscribe = useCallback(
    (onChange: () => void) => queryClient.getQueryCache().subscribe(notifyManager.batchCalls(onChange)),
    [queryClient],
  );
  const state = useSyncExternalStore(subscribe, () => queryClient.getQueryState<T>(queryKey));
  const answered = state?.status === 'success' && (when === undefined || when(state.data as T));
  return answered ? <span data-testid="answered" hidden /> : null;
}
