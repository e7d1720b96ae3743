import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Link, useLocation } from 'wouter';
import { renderWithProviders } from '../../testing/render';
import { RouteErrorBoundary } from './route-error-boundary';

let failing = true;
function Flaky() {
  if (failing) throw new Error('Cannot read properties of undefined');
  return <h1>Barters</h1>;
}

/** The router's use of it: the boundary follows the location. */
function Routed() {
  const [location] = useLocation();
  return (
    <>
      <nav>
        <Link href="/barters">Messages</Link>
      </nav>
      <RouteErrorBoundary location={location}>
        <Flaky />
      </RouteErrorBoundary>
    </>
  );
}

const warn = vi.spyOn(console, 'warn');
beforeEach(() => {
  failing = true;
  warn.mockImplementation(() => undefined);
  vi.mocked(console.error).mockImplementation(() => undefined);
});
afterEach(() => {
  // React reports each error a boundary caught on the console, and the boundary notes it: expected here.
  expect(warn).toHaveBeenCalledWith('A screen failed to draw', expect.any(Error), expect.any(String));
  warn.mockReset();
  vi.mocked(console.error).mockReset();
});

describe('a route whose screen fails to draw (ADR 052)', () => {
  it('says so, accessibly, with Try again, which draws the screen anew', async () => {
    renderWithProviders(<Routed />, { path: '/barters' });
    const alert = screen.getByRole('alert');
    expect(screen.getByRole('heading', { level: 1, name: 'Something went wrong' })).toBeVisible();
    expect(alert).toHaveTextContent('Try again, or go back to the home page.');

    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByRole('alert')).toBeVisible();

    failing = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByRole('heading', { name: 'Barters' })).toBeVisible();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('offers the home page, and going anywhere else clears the error', async () => {
    const { location } = renderWithProviders(<Routed />, { path: '/barters/7' });
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
    failing = false;
    await userEvent.click(screen.getByRole('link', { name: 'Messages' }));
    expect(location.history?.at(-1)).toBe('/barters');
    expect(screen.getByRole('heading', { name: 'Barters' })).toBeVisible();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
