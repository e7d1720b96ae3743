import { ArrowLeftRight } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/use-toast';

/**
 * Propose Barter. The proposal flow (offer, accept, counter, complete, rate) is its own issue; until
 * it lands the button shows the spec's notice (spec section 8), as issue 6 asks.
 */
export function ProposeBarterButton({ className }: { className?: string }) {
  return (
    <Button
      size="sm"
      className={className}
      onClick={(event) => {
        event.stopPropagation();
        toast({
          title: 'Feature Coming Soon',
          description: 'Barter proposal functionality will be available soon!',
        });
      }}
    >
      <ArrowLeftRight className="h-4 w-4" aria-hidden="true" />
      Propose Barter
    </Button>
  );
}
