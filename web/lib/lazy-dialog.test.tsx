import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { lazyDialog } from './lazy-dialog';

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
