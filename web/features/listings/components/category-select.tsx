import { Trans } from '@lingui/react/macro';
import type { Ref } from 'react';
import { categoriesFor } from '#common/categories.ts';
import { Select, type SelectProps } from '#web/components/ui/select.tsx';
import { translateKnown } from '#web/i18n/known-messages.ts';

/** The category list for goods or services (spec section 3); the list swaps with the service toggle. */
export function CategorySelect({
  isService,
  ref,
  ...props
}: SelectProps & { isService: boolean; ref?: Ref<HTMLSelectElement> }) {
  return (
    <Select ref={ref} {...props}>
      <option value="">
        <Trans>Choose a category</Trans>
      </option>
      {categoriesFor(isService).map((category) => (
        <option key={category} value={category}>
          {translateKnown(category)}
        </option>
      ))}
    </Select>
  );
}
