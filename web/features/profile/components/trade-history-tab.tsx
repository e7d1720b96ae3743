import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { ArrowLeftRight, History } from 'lucide-react';
import { TRADE_HISTORY_RECENT } from '#common/constants.ts';
import type { Trade } from '#common/schemas/trades.ts';
import { MemberLink } from '#web/components/member-link.tsx';
import { Badge } from '#web/components/ui/badge.tsx';
import { Button } from '#web/components/ui/button.tsx';
import { Card } from '#web/components/ui/card.tsx';
import { formatDate, formatRelativeTime } from '#web/i18n/format.ts';
import { i18n } from '#web/i18n/i18n.ts';
import { translateKnown } from '#web/i18n/known-messages.ts';
import { useTradeStats, useTrades } from '../api/trades';

function StatCard({ label, value }: { label: string; value: string | number }) {
  return (
    <Card className="p-4 text-center">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-bold text-slate-900">{value}</dd>
    </Card>
  );
}

/** The items of one side of a trade; a side with nothing listed (or only deleted items) says so. */
function TradeItems({ items }: { items: Array<Trade['fromItem']> }) {
  const listed = items.filter((item) => item !== null);
  if (listed.length === 0)
    return (
      <span className="text-slate-600 italic">
        <Trans>Unlisted item</Trans>
      </span>
    );
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      {listed.map((item, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a trade's items never reorder
        <span key={index} className="inline-flex items-center gap-2">
          <span className="font-medium text-slate-900">{item.title}</span>
          <Badge>{translateKnown(item.category)}</Badge>
        </span>
      ))}
    </span>
  );
}

/** A trade circle's hand-over as one sentence ("You gave Cordless drill to Ben"), then the categories. */
function HandOverLine({
  gave,
  items,
  name,
}: {
  /** The member gave the items (else they got them). */
  gave: boolean;
  items: Array<Trade['fromItem']>;
  name: string;
}) {
  const { t } = useLingui();
  const listed = items.filter((item) => item !== null);
  const titles = listed.length > 0 ? listed.map((item) => item.title).join(', ') : t`an unlisted item`;
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm">
      <span>
        {gave ? (
          <Trans>
            You gave <span className="font-medium text-slate-900">{titles}</span> to {name}
          </Trans>
        ) : (
          <Trans>
            You got <span className="font-medium text-slate-900">{titles}</span> from {name}
          </Trans>
        )}
      </span>
      {listed.map((item, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a trade's items never reorder
        <Badge key={index}>{translateKnown(item.category)}</Badge>
      ))}
    </p>
  );
}

/** Every item of each side (older answers carry only the first, as `fromItem`/`toItem`). */
const itemsOf = (all: Trade['fromItems'], first: Trade['fromItem']) => all ?? [first];

/** One completed trade, seen from `userId`'s side: the counterpart, both items, when. */
function TradeRow({ trade, userId }: { trade: Trade; userId: string }) {
  const { t } = useLingui();
  const mine = trade.fromUserId === userId;
  const counterpart = mine ? trade.toUser : trade.fromUser;
  const counterpartId = mine ? trade.toUserId : trade.fromUserId;
  const fromItems = itemsOf(trade.fromItems, trade.fromItem);
  const toItems = itemsOf(trade.toItems, trade.toItem);
  const [ownItems, theirItems] = mine ? [fromItems, toItems] : [toItems, fromItems];
  // A trade circle's hand-over moves one item one way: the other side lists nothing.
  const handOver = ownItems.length === 0 || theirItems.length === 0;
  const counterpartName = counterpart ? counterpart.firstName || t`User` : t`Former member`;
  const completedAt = trade.updatedAt || trade.createdAt;
  // A swap day's hand-over says where (issue 30), not "Trade circle".
  const swapDay = trade.swapDay?.name;
  return (
    <li className="grid gap-2 py-4 first:pt-0 last:pb-0">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-semibold text-slate-900">
          <Trans>
            Traded with <MemberLink id={counterpart ? counterpartId : null} name={counterpartName} />
          </Trans>
        </p>
        <div className="flex items-center gap-2 text-sm text-slate-600">
          {swapDay !== undefined ? (
            <Badge tone="brand">
              {ownItems.length > 0 ? <Trans>Given at {swapDay}</Trans> : <Trans>Received at {swapDay}</Trans>}
            </Badge>
          ) : handOver ? (
            <Badge tone="brand">
              <Trans>Trade circle</Trans>
            </Badge>
          ) : null}
          <Badge tone="success">
            <Trans>Completed</Trans>
          </Badge>
          <time
            dateTime={completedAt}
            title={formatDate(completedAt, { dateStyle: 'short', timeStyle: 'medium' })}
          >
            {formatRelativeTime(completedAt)}
          </time>
        </div>
      </div>
      {handOver ? (
        ownItems.length > 0 ? (
          <HandOverLine gave items={ownItems} name={counterpartName} />
        ) : (
          <HandOverLine gave={false} items={theirItems} name={counterpartName} />
        )
      ) : (
        <p className="flex flex-wrap items-center gap-2 text-sm">
          <TradeItems items={ownItems} />
          <ArrowLeftRight className="h-4 w-4 text-slate-500" aria-hidden="true" />
          <span className="sr-only">
            <Trans>for</Trans>
          </span>
          <TradeItems items={theirItems} />
        </p>
      )}
    </li>
  );
}

/** The Trade History tab: stats and the five most recent completed trades. */
export function TradeHistoryTab({ userId }: { userId: string }) {
  const { t } = useLingui();
  const stats = useTradeStats(userId);
  const trades = useTrades(userId, TRADE_HISTORY_RECENT);

  if (stats.isPending || trades.isPending) {
    return (
      <p className="text-slate-600">
        <Trans>Loading trade history...</Trans>
      </p>
    );
  }
  if (stats.isError || trades.isError) {
    return (
      <Card className="grid justify-items-start gap-3 p-6">
        <p className="text-slate-700">
          <Trans>We could not load the trade history.</Trans>
        </p>
        <Button
          variant="secondary"
          onClick={() => {
            void stats.refetch();
            void trades.refetch();
          }}
        >
          <Trans>Try again</Trans>
        </Button>
      </Card>
    );
  }

  const { totalTrades, rating, thisMonth } = stats.data;
  const recent = trades.data.slice(0, TRADE_HISTORY_RECENT);
  const shown = recent.length;

  return (
    <div className="grid gap-6">
      <dl className="grid grid-cols-3 gap-3">
        <StatCard label={t`Total Trades`} value={totalTrades} />
        <StatCard
          label={t`Rating`}
          value={
            rating === null
              ? t`N/A`
              : i18n.number(rating, { minimumFractionDigits: 1, maximumFractionDigits: 1 })
          }
        />
        <StatCard label={t`This Month`} value={thisMonth} />
      </dl>

      <Card className="p-6">
        <h2 className="text-lg font-semibold text-slate-900">
          <Trans>Recent Trades</Trans>
        </h2>
        {recent.length === 0 ? (
          <div className="mt-4 grid justify-items-center gap-2 py-6 text-center">
            <History className="h-10 w-10 text-slate-400" aria-hidden="true" />
            <p className="font-medium text-slate-900">
              <Trans>No completed trades yet</Trans>
            </p>
            <p className="text-sm text-slate-600">
              <Trans>When you and a neighbor both confirm a barter, it shows up here.</Trans>
            </p>
          </div>
        ) : (
          <>
            <ul aria-label={t`Recent trades`} className="mt-4 divide-y divide-slate-200">
              {recent.map((trade) => (
                <TradeRow key={trade.id} trade={trade} userId={userId} />
              ))}
            </ul>
            {totalTrades > recent.length ? (
              <p className="mt-4 text-sm text-slate-600">
                <Plural
                  value={totalTrades}
                  one={`Showing ${shown} of # trade`}
                  other={`Showing ${shown} of # trades`}
                />
              </p>
            ) : null}
          </>
        )}
      </Card>
    </div>
  );
}
