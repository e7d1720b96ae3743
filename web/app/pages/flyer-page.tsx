import { Trans, useLingui } from '@lingui/react/macro';
import { Printer } from 'lucide-react';
import { useMemo } from 'react';
import { BackToHome } from '../../components/layout/back-to-home';
import { Button } from '../../components/ui/button';
import { toast } from '../../components/ui/use-toast';
import { FlyerPreview } from '../../features/flyer/components/flyer-preview';
import { LocalAddressNote } from '../../features/flyer/components/local-address-note';
import { simpleFlyerHtml } from '../../features/flyer/flyer-html';
import { printFlyer } from '../../features/flyer/print-flyer';
import { useQrCode } from '../../features/flyer/qr-code';
import { useSiteInfo } from '../../lib/site-info';

/**
 * /flyer (spec section 2): back to home, the Community Flyer heading, Print a Flyer, and a preview
 * of the very flyer that prints: tagline, intro, six popular items and a QR code for PUBLIC_URL.
 */
export default function FlyerPage() {
  const { t } = useLingui();
  const site = useSiteInfo();
  const publicUrl = site.data?.publicUrl;
  const qrCode = useQrCode(publicUrl);
  const html = useMemo(
    () => (publicUrl && qrCode.data ? simpleFlyerHtml({ publicUrl, qrDataUrl: qrCode.data }) : null),
    [publicUrl, qrCode.data],
  );
  const failed = site.isError || qrCode.isError;

  const onPrint = () => {
    if (!html) return;
    if (!printFlyer(html)) {
      toast({
        title: t`Pop-up blocked`,
        description: t`Allow pop-ups for this site to print the flyer.`,
        variant: 'destructive',
      });
    }
  };

  return (
    <main className="min-h-screen bg-slate-50 px-4 py-8">
      <div className="mx-auto max-w-3xl">
        <BackToHome />
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <h1 className="text-3xl font-bold">
              <Trans>Community Flyer</Trans>
            </h1>
            <p className="mt-2 text-slate-700">
              <Trans>
                Print this flyer and post it on a local noticeboard to help neighbors find Barterhood.
              </Trans>
            </p>
          </div>
          <Button size="lg" onClick={onPrint} disabled={!html}>
            <Printer className="h-5 w-5" aria-hidden="true" />
            <Trans>Print a Flyer</Trans>
          </Button>
        </div>
        <div className="mt-6 grid gap-4">
          <LocalAddressNote publicUrl={publicUrl} />
          {html ? (
            <FlyerPreview html={html} title={t`Flyer preview`} />
          ) : failed ? (
            <p role="alert" className="text-red-700">
              <Trans>The flyer could not be prepared. Please reload the page.</Trans>
            </p>
          ) : (
            <p role="status" className="text-slate-600">
              <Trans>Preparing the flyer…</Trans>
            </p>
          )}
        </div>
      </div>
    </main>
  );
}
