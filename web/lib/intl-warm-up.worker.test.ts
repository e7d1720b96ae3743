import { afterEach, expect, test, vi } from 'vitest';

afterEach(() => {
  vi.restoreAllMocks();
  self.onmessage = null;
});

test('loads the page language’s formatters and replies when done, also for a language Intl refuses', async () => {
  const replies = vi.spyOn(self, 'postMessage').mockImplementation(() => undefined);
  const formatters = vi.spyOn(Intl, 'RelativeTimeFormat');
  await import('./intl-warm-up.worker');
  const send = (data: string) => self.onmessage?.call(self, new MessageEvent('message', { data }));

  send('es');
  expect(formatters).toHaveBeenCalledWith('es', { numeric: 'auto' });
  expect(replies).toHaveBeenCalledTimes(1);
  expect(replies).toHaveBeenLastCalledWith('ready');

  expect(() => send('not a language!')).not.toThrow();
  expect(replies).toHaveBeenCalledTimes(2);
});
