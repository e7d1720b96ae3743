/** The Saved tab. Saving items arrives with the feeds; until then there is nothing saved to show. */
export function SavedTab() {
  return (
    <section aria-labelledby="saved-heading">
      <h2 id="saved-heading" className="text-lg font-semibold">
        Saved Items (0)
      </h2>
      <p className="mt-2 text-slate-600">You have not saved any items yet.</p>
    </section>
  );
}
