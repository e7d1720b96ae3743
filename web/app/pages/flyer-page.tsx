import { ArrowLeft } from 'lucide-react';
import { Link } from 'wouter';
import { Button } from '../../components/ui/button';
import { paths } from '../paths';

/** /flyer. The printable flyer is built by the flyers issue; until then the page says so plainly. */
export default function FlyerPage() {
  return (
    <main className="min-h-screen bg-slate-50 px-4 py-8">
      <div className="mx-auto max-w-3xl">
        <Button asChild variant="ghost" className="mb-4">
          <Link href={paths.home}>
            <ArrowLeft className="h-4 w-4" aria-hidden="true" />
            Back to Home
          </Link>
        </Button>
        <h1 className="text-3xl font-bold">Community Flyer</h1>
        <p className="mt-3 text-slate-700">The printable flyer is not available yet.</p>
      </div>
    </main>
  );
}
