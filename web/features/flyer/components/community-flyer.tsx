import { Trans, useLingui } from '@lingui/react/macro';
import { Download, Printer } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { toast } from '#web/components/ui/use-toast.ts';
import { useSiteInfo } from '#web/lib/site-info.ts';
import { useNeighborhood } from '../api/get-neighborhood';
import { COMMUNITY_FLYER_FILE_NAME, communityFlyerHtml } from '../flyer-html';
import { downloadHtmlFile, printFlyer } from '../print-flyer';
import { useQrCode } from '../qr-code';
import { FlyerPreview } from './flyer-preview';
import { LocalAddressNote } from './local-address-note';

/** The dialog's body: mounted only while the dialog is open, so nothing is made before it is asked for. */
export function CommunityFlyer() {
  const checkboxId = useId();
  const { i18n, t } = useLingui();
  const lang = i18n.locale;
  const [includeNeighborhood, setIncludeNeighborhood] = useState(false);
  const site = useSiteInfo();
  const publicUrl = site.data?.publicUrl;
  const qrCode = useQrCode(publicUrl);
  const neighborhood = useNeighborhood({ enabled: includeNeighborhood });

  const waitingForNeighborhood = includeNeighborhood && neighborhood.isPending;
  const html = useMemo(() => {
    if (!publicUrl || !qrCode.data || waitingForNeighborhood) return null;
    return communityFlyerHtml({
      publicUrl,
      qrDataUrl: qrCode.data,
      neighborhood: includeNeighborhood ? neighborhood.data : null,
      lang,
    });
  }, [publicUrl, qrCode.data, waitingForNeighborhood, includeNeighborhood, neighborhood.data, lang]);

  const onPrint = () => {
    if (!html) return;
    if (!printFlyer(html)) {
      toast({
        title: t`Pop-up blocked`,
        description: t`Allow pop-ups for this site to print the flyer, or download it instead.`,
        variant: 'destructive',
      });
    }
  };
  const onDownload = () => {
    if (html) downloadHtmlFile(COMMUNITY_FLYER_FILE_NAME, html);
  };

  return (
    <div className="grid gap-4">
      <div className="flex items-start gap-2">
        <input
          id={checkboxId}
          type="checkbox"
          checked={includeNeighborhood}
          onChange={(event) => setIncludeNeighborhood(event.target.checked)}
          className="mt-0.5 h-4 w-4 shrink-0 accent-brand-700"
        />
        <label htmlFor={checkboxId} className="text-sm text-slate-800">
          <Trans>Include what our neighborhood offers and wants right now</Trans>
          <span className="block text-slate-600">
            <Trans>A few current offers and wants near you, with first names only.</Trans>
          </span>
        </label>
      </div>
      {includeNeighborhood && neighborhood.isError ? (
        <p role="alert" className="text-sm text-red-700">
          <Trans>
            Could not load what the neighborhood offers right now. The flyer leaves that part out.
          </Trans>
        </p>
      ) : null}
      <LocalAddressNote publicUrl={publicUrl} />
      <div className="flex flex-wrap gap-2">
        <Button onClick={onPrint} disabled={!html}>
          <Printer className="h-4 w-4" aria-hidden="true" />
          <Trans>Print</Trans>
        </Button>
        <Button variant="secondary" onClick={onDownload} disabled={!html}>
          <Download className="h-4 w-4" aria-hidden="true" />
          <Trans>Download</Trans>
        </Button>
      </div>
      {html ? (
        <FlyerPreview html={html} title={t`Community flyer preview`} />
      ) : site.isError || qrCode.isError ? (
        <p role="alert" className="text-red-700">
          <Trans>The flyer could not be prepared. Please try again.</Trans>
        </p>
      ) : (
        <p role="status" className="text-slate-600">
          <Trans>Preparing the flyer…</Trans>
        </p>
      )}
    </div>
  );
}
