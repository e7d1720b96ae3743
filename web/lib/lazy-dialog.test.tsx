import * as DialogPrimitive from '@radix-ui/react-dialog';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ReactNode, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { lazyDialog, lazyTriggeredDialog } from './lazy-dialog';

/** A stand-in for a dialog module: counts how often its code was asked for. */
function fakeDialogModule() {
  const load = vi.fn(async () => ({ open, onClose }: { open: boolean; onClose: () => void }) => (
    <div role="dialog" aria-label="Add Want" hidden={!open}>
      <button type="button" onClick={onClose}>
        Close
      </button>
    </div>
  ));
  return load;
}

function Screen({
  Dialog,
}: {
  Dialog: ReturnType<typeof lazyDialog<{ open: boolean; onClose: () => void }>>;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Add Want
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} />
    </>
  );
}

describe('a dialog loaded when it first opens', () => {
  it('loads nothing until it opens, then shows it, and keeps it mounted after it closes', async () => {
    const load = fakeDialogModule();
    const Dialog = lazyDialog(load);
    render(<Screen Dialog={Dialog} />);
    expect(load).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog', { hidden: true })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Add Want' }));
    expect(await screen.findByRole('dialog', { name: 'Add Want' })).toBeVisible();
    expect(load).toHaveBeenCalledTimes(1);

    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('dialog', { hidden: true })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add Want' }));
    expect(await screen.findByRole('dialog', { name: 'Add Want' })).toBeVisible();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('opens with its own test of "open" (an item id rather than a flag)', async () => {
    const load = vi.fn(async () => ({ itemId }: { itemId: number | null }) => <p>Item {itemId}</p>);
    const Detail = lazyDialog(load, (props: { itemId: number | null }) => props.itemId !== null);
    const { rerender } = render(<Detail itemId={null} />);
    expect(load).not.toHaveBeenCalled();
    rerender(<Detail itemId={7} />);
    expect(await screen.findByText('Item 7')).toBeInTheDocument();
  });
});

/** A stand-in for a dialog opened by its own button: Radix's, with the button as its trigger. */
function fakeTriggeredDialog({
  open,
  onOpenChange,
  trigger,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  trigger: ReactNode;
}) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Trigger asChild>{trigger}</DialogPrimitive.Trigger>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Content aria-describedby={undefined}>
          <DialogPrimitive.Title>Cancel this barter?</DialogPrimitive.Title>
          <DialogPrimitive.Close>Keep it</DialogPrimitive.Close>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

describe('a dialog opened by its own button, loaded on the first click', () => {
  function Screen({
    Dialog,
    onClick,
  }: {
    Dialog: ReturnType<typeof lazyTriggeredDialog>;
    onClick?: () => void;
  }) {
    const [open, setOpen] = useState(false);
    return (
      <Dialog
        open={open}
        onOpenChange={setOpen}
        trigger={
          <button type="button" onClick={onClick}>
            Cancel Barter
          </button>
        }
      />
    );
  }

  it('shows only the button until it is clicked, then the dialog; the focus returns to the button', async () => {
    const load = vi.fn(async () => fakeTriggeredDialog);
    const Dialog = lazyTriggeredDialog(load);
    const onClick = vi.fn();
    render(<Screen Dialog={Dialog} onClick={onClick} />);
    expect(load).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'Cancel Barter' }));
    expect(await screen.findByRole('dialog', { name: 'Cancel this barter?' })).toBeVisible();
    expect(load).toHaveBeenCalledTimes(1);
    // The button's own handler still runs (a card around it must not open as well).
    expect(onClick).toHaveBeenCalledTimes(1);

    await userEvent.click(screen.getByRole('button', { name: 'Keep it' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Cancel Barter' })).toHaveFocus();

    // Opened again by Radix's own trigger, with nothing loaded again.
    await userEvent.click(screen.getByRole('button', { name: 'Cancel Barter' }));
    expect(await screen.findByRole('dialog', { name: 'Cancel this barter?' })).toBeVisible();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("stays closed when the button's own handler prevents the default", async () => {
    const load = vi.fn(async () => fakeTriggeredDialog);
    const Dialog = lazyTriggeredDialog(load);
    const onOpenChange = vi.fn();
    render(
      <Dialog
        open={false}
        onOpenChange={onOpenChange}
        trigger={
          <button type="button" onClick={(event) => event.preventDefault()}>
            Cancel Barter
          </button>
        }
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Cancel Barter' }));
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(load).not.toHaveBeenCalled();
  });
});
