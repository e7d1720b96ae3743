/**
 * Which modal dialogs are on show (each DialogContent registers while mounted): a toast that gives
 * way (the safety tip) waits while one is open and goes when one opens, never drawn over a dialog's
 * header (issue 28).
 */
const open = new Set<symbol>();
const listeners = new Set<() => void>();

function changed() {
  for (const listener of [...listeners]) listener();
}

/** Mark a dialog as open; the function returned marks it closed. */
export function registerOpenDialog(): () => void {
  const id = Symbol('dialog');
  open.add(id);
  changed();
  return () => {
    if (open.delete(id)) changed();
  };
}

export function anyDialogOpen(): boolean {
  return open.size > 0;
}

/** Called whenever a dialog opens or closes; returns the unsubscribe. */
export function onDialogsChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
