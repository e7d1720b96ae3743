/**
 * ICU's locale data for the page's language, loaded in a thread of its own (started by web/boot.ts).
 * V8 lists the locales ICU has, and ICU loads a locale's number, plural, date and relative-time data,
 * once per renderer process for all its threads: what this worker loads, the page's first formatters
 * on the main thread find ready (Chromium 156 here: the first `Intl.NumberFormat` took 46-71 ms
 * without it, 0.1-0.2 ms after it). The formatters are web/lib/warm-up.ts's.
 */
self.onmessage = (event: MessageEvent<string>) => {
  const locale = event.data;
  try {
    new Intl.NumberFormat(locale).format(1.5);
    new Intl.PluralRules(locale).select(1);
    new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric' }).format(0);
    new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(-1, 'day');
  } catch {
    // A language Intl refuses: the main thread's first formatter falls back and loads what it needs.
  }
  self.postMessage('ready');
};

export {};
