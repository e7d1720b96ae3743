import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { lazy, useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DeferredMenu, type MenuArrival, useMenuArrival } from './deferred-menu';

// The page's settling, driven by the test (the real one waits for the app to start and five seconds).
const settle = vi.hoisted(() => {
  let settled = false;
  const listeners = new Set<() => void>();
  return {
    get: () => settled,
    reset: () => {
      settled = false;
      listeners.clear();
    },
    now: () => {
      settled = true;
      for (const listener of listeners) listener();
    },
    listen: (listener: () => void) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
});

vi.mock('#web/lib/settled.ts', async () => {
  const { startTransition, useEffect, useState } = await import('react');
  return {
    useSettled: () => {
      const [value, setValue] = useState(settle.get());
      useEffect(() => settle.listen(() => startTransition(() => setValue(true))), []);
      return value;
    },
  };
});

/** The code that arrives: a menu whose first item can be disabled, as the bell's "Mark all as read". */
function LoadedMenu({ arrival, firstDisabled }: { arrival: MenuArrival; firstDisabled: boolean }) {
  const { defaultOpen, triggerRef, contentRef } = useMenuArrival(arrival);
  const [open, setOpen] = useState(defaultOpen);
  return (
    <DropdownMenu.Root open={open} onOpenChange={setOpen} modal={false}>
      <DropdownMenu.Trigger ref={triggerRef} aria-label="Things" data-loaded="">
        T
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content ref={contentRef}>
          <DropdownMenu.Item disabled={firstDisabled}>First</DropdownMenu.Item>
          <DropdownMenu.Item>Second</DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/** Arrives when the test lets it, as a chunk on a slow network. */
function setup(firstDisabled = false) {
  let arrive!: () => void;
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  const Menu = lazy(() => arrived.then(() => ({ default: LoadedMenu })));
  render(
    <>
      <button type="button">Before</button>
      <DeferredMenu
        standIn={(props) => (
          <button type="button" aria-label="Things" {...props}>
            T
          </button>
        )}
        menu={(arrival) => <Menu arrival={arrival} firstDisabled={firstDisabled} />}
      />
    </>,
  );
  return { arrive: () => act(async () => arrive()) };
}

const things = () => screen.getByRole('button', { name: 'Things' });

describe('a header menu that loads after the page settles (ADR 113)', () => {
  beforeEach(() => settle.reset());

  it('a stand-in opened from the keyboard arrives open with its first item focused', async () => {
    const menu = setup();
    const user = userEvent.setup();
    await user.tab();
    await user.tab();
    expect(things()).toHaveFocus();
    await user.keyboard('{Enter}');
    // The stand-in stays, with the focus, until the code is there.
    expect(things()).not.toHaveAttribute('data-loaded');
    expect(things()).toHaveFocus();
    await menu.arrive();
    expect(await screen.findByRole('menuitem', { name: 'First' })).toHaveFocus();
    // Escape gives the focus back to the menu's own button.
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
    expect(things()).toHaveAttribute('data-loaded');
    expect(things()).toHaveFocus();
  });

  it('skips an item that cannot take the focus, and the down arrow opens it too', async () => {
    const menu = setup(true);
    const user = userEvent.setup();
    things().focus();
    await user.keyboard('{ArrowDown}');
    await menu.arrive();
    expect(await screen.findByRole('menuitem', { name: 'Second' })).toHaveFocus();
  });

  it('a stand-in clicked arrives open without moving the focus into the list', async () => {
    const menu = setup();
    const user = userEvent.setup();
    await user.click(things());
    await menu.arrive();
    const menuElement = await screen.findByRole('menu');
    expect(screen.getByRole('menuitem', { name: 'First' })).not.toHaveFocus();
    expect(menuElement).toHaveFocus();
  });

  it('the page settling under a focused stand-in leaves the focus on the menu that replaces it', async () => {
    const menu = setup();
    things().focus();
    act(() => settle.now());
    await menu.arrive();
    await waitFor(() => expect(things()).toHaveAttribute('data-loaded'));
    expect(things()).toHaveFocus();
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });

  it('a stand-in clicked while the settled page asks for its menu arrives open', async () => {
    const menu = setup();
    const user = userEvent.setup();
    // The page settles: a transition asks for the code and keeps the stand-in until it is there.
    act(() => settle.now());
    await user.click(things());
    await menu.arrive();
    expect(await screen.findByRole('menu')).toBeInTheDocument();
  });

  it('a press that began on the stand-in and ended on the menu that replaced it opens the menu', async () => {
    const menu = setup();
    const user = userEvent.setup();
    act(() => settle.now());
    // The button goes down on the stand-in; the code arrives and swaps it before the button comes up.
    await user.pointer({ keys: '[MouseLeft>]', target: things() });
    await menu.arrive();
    await waitFor(() => expect(things()).toHaveAttribute('data-loaded'));
    await user.pointer({ keys: '[/MouseLeft]', target: things() });
    expect(await screen.findByRole('menu')).toBeInTheDocument();
  });

  it('the page settling elsewhere leaves the focus where it is', async () => {
    const menu = setup();
    const before = screen.getByRole('button', { name: 'Before' });
    before.focus();
    act(() => settle.now());
    await menu.arrive();
    await waitFor(() => expect(things()).toHaveAttribute('data-loaded'));
    expect(before).toHaveFocus();
  });
});
