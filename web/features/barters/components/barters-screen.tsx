import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { useLocation, useSearch } from 'wouter';
import { BARTER_BOXES, type BarterBox } from '#common/barter-machine.ts';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#web/components/ui/tabs.tsx';
import { BARTER_BOX_MESSAGES } from '#web/lib/barter-labels.ts';
import { paths } from '#web/lib/paths.ts';
import { BarterList } from './barter-list';

/**
 * The Barters screen: proposals received and sent, barters in progress and past ones; ?box= picks a
 * tab. `circles` (the trade circles waiting for an answer) comes above the lists.
 */
export function BartersScreen({ circles }: { circles?: ReactNode }) {
  const { t } = useLingui();
  const search = useSearch();
  const [, navigate] = useLocation();
  const requested = new URLSearchParams(search).get('box');
  const box: BarterBox = BARTER_BOXES.includes(requested as BarterBox)
    ? (requested as BarterBox)
    : 'incoming';
  return (
    <section aria-labelledby="barters-heading" className="grid gap-4">
      <div>
        <h1 id="barters-heading" className="text-2xl font-bold">
          <Trans>Barters</Trans>
        </h1>
        <p className="text-slate-600">
          <Trans>Proposals you received and sent, barters in progress and past ones.</Trans>
        </p>
      </div>
      {circles}
      <Tabs
        value={box}
        onValueChange={(next) => navigate(paths.bartersBox(next as BarterBox), { replace: true })}
      >
        <TabsList aria-label={t`Barter lists`}>
          {BARTER_BOXES.map((value) => (
            <TabsTrigger key={value} value={value}>
              {t(BARTER_BOX_MESSAGES[value])}
            </TabsTrigger>
          ))}
        </TabsList>
        {BARTER_BOXES.map((value) => (
          <TabsContent key={value} value={value}>
            <BarterList box={value} />
          </TabsContent>
        ))}
      </Tabs>
    </section>
  );
}
