import { Trans } from '@lingui/react/macro';
import { Info } from 'lucide-react';
import { isLoopbackUrl } from '#common/urls.ts';

/**
 * Issue 17: a flyer printed while the site's public address is this computer's (PUBLIC_URL unset or
 * a loopback address) sends every phone that scans it nowhere. Says so, and how to fix it.
 */
export function LocalAddressNote({ publicUrl }: { publicUrl: string | undefined }) {
  if (!publicUrl || !isLoopbackUrl(publicUrl)) return null;
  return (
    <div
      role="note"
      className="flex gap-2 rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
    >
      <Info className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
      <p>
        <Trans>
          The QR code and address on this flyer point to this computer ({publicUrl}), so phones that scan it
          will not reach Barterhood. Whoever runs this site sets its public address with the{' '}
          <code className="font-mono">PUBLIC_URL</code> setting (for example{' '}
          <code className="font-mono">PUBLIC_URL=https://barter.example.org</code>) and restarts it.
        </Trans>
      </p>
    </div>
  );
}
