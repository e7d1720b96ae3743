import {
  type ComponentType,
  cloneElement,
  createElement,
  lazy,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
  Suspense,
  useState,
} from 'react';

/**
 * A dialog whose code loads when it first opens (ADR 033): a form, its schemas and their libraries
 * stay out of the screen that merely offers it. Renders nothing until `isOpen(props)` is first true,
 * then the loaded dialog, which stays mounted so it closes (and opens again) as any dialog does.
 */
export function lazyDialog<P extends object>(
  load: () => Promise<ComponentType<P>>,
  isOpen: (props: P) => boolean = (props) => (props as { open?: boolean }).open === true,
): (props: P) => ReactNode {
  const Loaded = lazy(async () => ({ default: await load() }));
  return function LazyDialog(props: P) {
    const open = isOpen(props);
    const [opened, setOpened] = useState(open);
    if (open && !opened) setOpened(true);
    if (!open && !opened) return null;
    return <Suspense fallback={null}>{createElement(Loaded as ComponentType<P>, props)}</Suspense>;
  };
}

/** The props a dialog opened by its own button takes (`trigger` becomes its Radix trigger). */
interface TriggeredDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  trigger: ReactElement<{ onClick?: (event: MouseEvent<HTMLElement>) => void }>;
}

/**
 * A dialog opened by its own button, whose code loads on the first click (ADR 033): until then the
 * button alone, which asks to open; while the code loads, the button still; then the dialog with the
 * same button as its trigger, so the focus goes back to it when the dialog closes.
 */
export function lazyTriggeredDialog<P extends object>(
  load: () => Promise<ComponentType<P>>,
): (props: Omit<P, keyof TriggeredDialogProps> & TriggeredDialogProps) => ReactNode {
  const Loaded = lazy(async () => ({ default: await load() }));
  return function LazyTriggeredDialog(props: Omit<P, keyof TriggeredDialogProps> & TriggeredDialogProps) {
    const [opened, setOpened] = useState(props.open);
    if (props.open && !opened) setOpened(true);
    if (!opened) {
      const trigger = props.trigger;
      return cloneElement(trigger, {
        onClick: (event: MouseEvent<HTMLElement>) => {
          trigger.props.onClick?.(event);
          if (!event.defaultPrevented) props.onOpenChange(true);
        },
      });
    }
    return (
      <Suspense fallback={props.trigger}>
        {createElement(Loaded as ComponentType<P>, props as unknown as P)}
      </Suspense>
    );
  };
}
