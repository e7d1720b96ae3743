import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CountBadge } from '../components/ui/count-badge';
import { Toaster } from '../components/ui/toaster';
import { dismissToast, toast } from '../components/ui/use-toast';
import { BOTTOM_NAV_BADGE_CLASSES } from './layout/bottom-nav';
import { UNPROMPTED_CLASSES } from './unprompted-classes';

/** Every class on the elements under `root`, but lucide's own names for its icons (no styles of ours). */
const classesUnder = (root: Element) =>
  new Set(
    [root, ...root.querySelectorAll('*')].flatMap((element) =>
      [...element.classList].filter((name) => !name.startsWith('lucide')),
    ),
  );

describe('what the app draws on its own has its styles in every drawn page (ADR 113)', () => {
  it('an unread count, on the header, the bell and the bottom bar', () => {
    const { container } = render(
      <div>
        <CountBadge count={3} />
        <CountBadge count={120} className={BOTTOM_NAV_BADGE_CLASSES} />
      </div>,
    );
    const classes = classesUnder(container);
    expect(classes).toContain('bg-red-600');
    expect(classes).toContain('-right-3');
    for (const name of classes) expect(UNPROMPTED_CLASSES).toContain(name);
  });

  it('a toast, plain and for an error, with its title, text and close button', async () => {
    render(<Toaster />);
    for (const variant of ['default', 'destructive'] as const) {
      act(() => {
        toast({ title: `Title ${variant}`, description: 'Details', variant });
      });
      const region = (await screen.findByText(`Title ${variant}`)).closest('[role="region"]');
      if (!region) throw new Error('The toast is not in its region');
      const classes = classesUnder(region);
      expect(classes).toContain(variant === 'destructive' ? 'bg-red-700' : 'bg-white');
      for (const name of classes) expect(UNPROMPTED_CLASSES).toContain(name);
      act(() => dismissToast());
    }
  });
});
