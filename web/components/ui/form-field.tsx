import { cloneElement, type ReactElement, useId } from 'react';
import { translateKnown } from '../../i18n/known-messages';
import { Label } from './label';

/**
 * A labelled field with its validation message: the message is announced and tied to the input
 * through aria-describedby, and the input is marked aria-invalid. Messages from the shared schemas are
 * English; the catalogue gives them in the member's language (ADR 036).
 */
export function FormField({
  label,
  error,
  children,
}: {
  label: string;
  error?: string;
  children: ReactElement<Record<string, unknown>>;
}) {
  const id = useId();
  const messageId = `${id}-message`;
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      {cloneElement(children, {
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': error ? messageId : undefined,
      })}
      {error ? (
        <p id={messageId} role="alert" className="text-sm font-medium text-red-700">
          {translateKnown(error)}
        </p>
      ) : null}
    </div>
  );
}
