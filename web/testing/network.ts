import { act } from '@testing-library/react';
import { vi } from 'vitest';

/** The toast region, found by CSS: while a modal dialog is open it is aria-hidden (Radix). */
export function toastRegion(): HTMLElement {
  const region = document.querySelector<HTMLElement>('[role="region"][aria-label^="Notifications"]');
  if (!region) throw new Error('No toast region');
  return region;
}

/** Switch the browser's network state the way a browser does: navigator.onLine, then the event. */
export function setOnline(online: boolean) {
  vi.spyOn(window.navigator, 'onLine', 'get').mockReturnValue(online);
  act(() => {
    window.dispatchEvent(new Event(online ? 'online' : 'offline'));
  });
}
