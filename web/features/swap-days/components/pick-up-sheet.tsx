import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { ArrowLeft, Printer } from 'lucide-react';
import { Link } from 'wouter';
import type { SwapDaySheet } from '#common/schemas/swap-days.ts';
import { DetailScreen } from '#web/components/detail-screen.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { serverMessageOf } from '#web/lib/api-client.ts';
import { paths } from '#web/lib/paths.ts';
import { useSwapDaySheet } from '../api/swap-days';
import { formatWhen } from '../swap-day-format';

/** Paper margins; the app's header, navigation and buttons are hidden in print (print:hidden). */
const PRINT_PAGE = '@page { margin: 14mm; }';

function BackToSwapDay({ id }: { id: number }) {
  return (
    <Button asChild variant="ghost" className="justify-self-start print:hidden">
      <Link href={paths.swapDay(id)}>
        <ArrowLeft className="h-4 w-4" aria-hidden="true" />
        <Trans>Back to the swap day</Trans>
      </Link>
    </Button>
  );
}

/**
 * The pick-up sheet of a matched swap day: who hands what to whom, one table per giver, with a box
 * to tick on the day. The organizer's lists every hand-over; a member's their own lines. Prints
 * clean: the app's chrome and these buttons are left off the paper.
 */
export function PickUpSheet({ id }: { id: number }) {
  const { t } = useLingui();
  const query = useSwapDaySheet(id);
  return (
    <DetailScreen
      query={query}
      back={<BackToSwapDay id={id} />}
      missing={t`This swap day does not exist, or it is not yours to see.`}
      failed={serverMessageOf(query.error, t`The pick-up sheet could not be loaded. Please try again.`)}
    >
      {(sheet) => <SheetBody sheet={sheet} />}
    </DetailScreen>
  );
}

function SheetBody({ sheet }: { sheet: SwapDaySheet }) {
  const { t } = useLingui();
  const { swapDay, itemsTraded, membersTrading } = sheet;
  return (
    <article aria-labelledby="sheet-heading" className="grid gap-6 print:gap-4 print:text-black">
      <style>{PRINT_PAGE}</style>
      <div className="flex flex-wrap items-center justify-between gap-3 print:hidden">
        <BackToSwapDay id={swapDay.id} />
        <Button onClick={() => window.print()}>
          <Printer className="h-4 w-4" aria-hidden="true" />
          <Trans>Print</Trans>
        </Button>
      </div>
      <header className="grid gap-1">
        <p className="text-sm font-medium uppercase tracking-wide text-brand-800 print:text-black">
          {sheet.complete ? t`Pick-up sheet` : t`Your pick-up lines`}
        </p>
        <h1 id="sheet-heading" className="text-2xl font-bold">
          {swapDay.name}
        </h1>
        <p className="text-slate-700 print:text-black">
          <time dateTime={swapDay.startsAt}>{formatWhen(swapDay.startsAt)}</time> · {swapDay.place}
        </p>
        <p className="text-sm text-slate-700 print:text-black">
          <Trans>
            <Plural value={itemsTraded} one="# item changes" other="# items change" /> hands among{' '}
            <Plural value={membersTrading} one="# neighbor" other="# neighbors" />. Tick each hand-over when
            it is done.
          </Trans>
        </p>
      </header>
      {sheet.givers.length === 0 ? (
        <p className="text-slate-700">
          <Trans>Nothing changes hands at this swap day.</Trans>
        </p>
      ) : (
        sheet.givers.map((group, index) => {
          const giver = group.giver.displayName;
          return (
            <section
              key={group.giver.id ?? `former-${index}`}
              aria-labelledby={`giver-${index}`}
              className="grid gap-2 break-inside-avoid"
            >
              <h2 id={`giver-${index}`} className="text-lg font-semibold">
                <Trans>{giver} gives</Trans>
              </h2>
              <table className="w-full table-fixed border-collapse text-left text-sm">
                <thead>
                  <tr className="border-b-2 border-slate-300 print:border-black">
                    <th scope="col" className="w-16 py-2 pr-2 font-semibold">
                      <Trans>Done</Trans>
                    </th>
                    <th scope="col" className="w-1/2 py-2 pr-2 font-semibold">
                      <Trans>Item</Trans>
                    </th>
                    <th scope="col" className="py-2 pr-2 font-semibold">
                      <Trans>To</Trans>
                    </th>
                    <th scope="col" className="w-16 py-2 font-semibold">
                      <Trans>Loop</Trans>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {group.lines.map((line) => {
                    const item = line.item.title;
                    const receiver = line.receiver.displayName;
                    return (
                      <tr
                        key={`${line.loop}-${line.item.id ?? line.item.title}`}
                        className="border-b border-slate-200 print:border-slate-500"
                      >
                        <td className="py-2 pr-2">
                          <input
                            type="checkbox"
                            className="h-5 w-5 accent-brand-700"
                            aria-label={t`Handed over: ${item} from ${giver} to ${receiver}`}
                          />
                        </td>
                        <td className="py-2 pr-2 break-words">{line.item.title}</td>
                        <td className="py-2 pr-2 break-words">{line.receiver.displayName}</td>
                        <td className="py-2">{line.loop}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </section>
          );
        })
      )}
    </article>
  );
}
