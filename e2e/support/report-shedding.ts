/**
 * After the journeys (Playwright's global teardown, before the journey server stops): what the
 * server's load shedding refused during the run, from its own metrics (ADR 038, 041 and 051), by
 * reason, by cost and by route. A journey that fails on a 503 then says in CI's log which limit was
 * met; the server's warnings (a long hold of the embedded database among them, ADR 098) are in the
 * same log as [WebServer] lines.
 */
import type { FullConfig } from '@playwright/test';

/** The lines of a Prometheus text exposition that count requests shed or answered 503, non-zero. */
export function sheddingLines(exposition: string): string[] {
  return exposition
    .split('\n')
    .filter(
      (line) =>
        /^http_requests_shed(_by_cost)?_total\{/.test(line) ||
        (/^http_requests_total\{/.test(line) && line.includes('status_code="503"')),
    )
    .filter((line) => !/\s0$/.test(line));
}

export default async function reportShedding(config: FullConfig): Promise<void> {
  // The journey server's address and metrics token, as playwright.config.ts starts it.
  const server = config.webServer;
  const token = server?.env?.METRICS_TOKEN;
  if (!server?.url || !token) return;
  try {
    const response = await fetch(new URL('/metrics', server.url), {
      headers: { authorization: `Bearer ${token}` },
    });
    if (!response.ok) {
      console.log(`journey server: its metrics answered ${response.status}`);
      return;
    }
    const lines = sheddingLines(await response.text());
    console.log(
      lines.length
        ? `journey server: requests shed (503) during the run:\n  ${lines.join('\n  ')}`
        : 'journey server: no request shed during the run',
    );
  } catch (error) {
    console.log(`journey server: its metrics could not be read (${(error as Error).message})`);
  }
}
