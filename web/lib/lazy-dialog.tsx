import { type ComponentType, createElement, lazy, type ReactNode, Suspense, useState } from 'react';
import { withMessages } from '../i18n/i18n';

/**
 * A dialog whose code loads when it first opens (ADR 033): a form, its schemas and their libraries
 * stay out of the screen that merely offers it. Renders nothing until `isOpen(props)` is first true,
 * then the loaded dialog, which stays mounted so it closes (and opens again) as any dialog does.
 */
export function lazyDialog<P extends object>(
  load: () => Promise<ComponentType<P>>,
  isOpen: (props: P) => boolean = (props) => (props as { open?: boolean }).open === true,
): (props: P) => ReactNode {
  const Loaded = lazy(async () => ({ default: await withMessages(load()) }));
  return function LazyDialog(props: P) {
    const open = isOpen(props);
    const [opened, setOpened] = useState(open);
    if (open && !opened) setOpened(true);
    if (!open && !opened) return null;
    return <Suspense fallback={null}>{createElement(Loaded as ComponentType<P>, props)}</Suspense>;
  };
}
