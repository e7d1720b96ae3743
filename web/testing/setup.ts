import '@testing-library/jest-dom/vitest';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { dismissToast } from '../components/ui/use-toast';
import { i18n } from '../i18n/i18n';
import { messages } from '../locales/en.po';
import { server, stopRecording } from './server';

// Component tests read the English catalogue, as the app does for an English browser (ADR 036);
// a message not extracted yet is compiled from the source text the macro leaves in dev builds.
i18n.setMessagesCompiler(compileMessage);
i18n.loadAndActivate({ locale: 'en', messages });
afterEach(() => {
  if (i18n.locale !== 'en') i18n.activate('en');
});

// The API is Mock Service Worker's (ADR 069): each test answers what it expects with server.use();
// a request nothing answers is an error.
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  stopRecording();
  server.resetHandlers();
});
afterAll(() => server.close());

// findBy* and waitFor wait for what the screen shows, up to 5 s: a lazy dialog's first load (its
// chunk through importChunk, its messages) took over the default 1 s on the shared two-core host
// while other suites ran. Waiting longer costs nothing when the screen is quick.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  // Toasts live in a module-level store that outlives a render (a toast survives moving to another
  // screen): one a test leaves open would show in the next test's screen, as a list item with a
  // Close button, and make that test depend on the order (three files did, thirtieth session).
  // Closed once nothing is mounted, so no screen renders meanwhile.
  cleanup();
  dismissToast();
  window.localStorage.clear();
  window.sessionStorage.clear();
});

// Loud tests (docs/architecture.md, habit 13): an unexpected console.error fails the test.
const consoleError = vi.spyOn(console, 'error');
afterEach(() => {
  const calls = consoleError.mock.calls;
  consoleError.mockClear();
  if (calls.length > 0)
    throw new Error(`console.error was called: ${calls.map((c) => c.join(' ')).join('\n')}`);
});

// jsdom lacks ResizeObserver, which Radix uses to size switches and popovers; nothing here needs real sizes.
if (!('ResizeObserver' in globalThis)) {
  globalThis.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

// Test files share a worker and its jsdom window (vitest.config.ts, the web project's `isolate: false`):
// once a file is done, its spy goes and the app's modules are let go, so the next file imports them
// afresh (their module-level state: toasts, open dialogs, the reads already answered) while React,
// Radix and jsdom stay loaded.
afterAll(() => {
  consoleError.mockRestore();
  vi.resetModules();
});
