import { useLingui } from '@lingui/react/macro';
import { Heart } from 'lucide-react';
import { Button } from '#web/components/ui/button.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { cn } from '#web/lib/utils.ts';
import { useSavedState, useToggleSaved } from '../api/saved-items';

/** The save toggle (spec section 4): starts from isSaved and flips after a successful call. */
export function SaveToggle({
  itemId,
  title,
  initiallySaved,
}: {
  itemId: number;
  title: string;
  initiallySaved: boolean;
}) {
  const { t } = useLingui();
  const saved = useSavedState(itemId, initiallySaved);
  const toggle = useToggleSaved();
  const onClick = () =>
    toggle.mutate(
      { itemId, save: !saved },
      {
        onSuccess: () => {
          toast(
            saved
              ? { title: t`Item unsaved`, description: t`Item removed from your saved list` }
              : { title: t`Item saved`, description: t`Item added to your saved list` },
          );
        },
        onError: () =>
          toast({
            title: t`Error`,
            description: t`Failed to save item. Please try again.`,
            variant: 'destructive',
          }),
      },
    );
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-pressed={saved}
      aria-label={saved ? t`Unsave ${title}` : t`Save ${title}`}
      disabled={toggle.isPending}
      onClick={onClick}
    >
      <Heart
        className={cn('h-5 w-5', saved ? 'fill-red-600 text-red-600' : 'text-slate-600')}
        aria-hidden="true"
      />
    </Button>
  );
}
