import { Printer } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogTrigger } from '../../../components/ui/dialog';

// The flyer's body (its HTML, the QR code maker) loads when the dialog opens, not with the feed (ADR 033).
const CommunityFlyer = lazy(() =>
  import('./community-flyer').then((module) => ({ default: module.CommunityFlyer })),
);

/**
 * The home feed's Community Flyer button (spec section 2): a dialog with the second flyer (title,
 * tagline, four benefits, four-step how-to, ten tear-off tabs with the site address), optionally
 * with what the neighbourhood offers and wants right now, to print or download as one HTML file.
 */
export function CommunityFlyerButton({ className }: { className?: string }) {
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="secondary" className={className}>
          <Printer className="h-4 w-4" aria-hidden="true" />
          Community Flyer
        </Button>
      </DialogTrigger>
      <DialogContent
        title="Community Flyer"
        description="Print it or download it, then post it where your neighbors will see it."
        className="max-w-3xl"
      >
        <Suspense
          fallback={
            <p role="status" className="text-slate-600">
              Preparing the flyer…
            </p>
          }
        >
          <CommunityFlyer />
        </Suspense>
      </DialogContent>
    </Dialog>
  );
}
