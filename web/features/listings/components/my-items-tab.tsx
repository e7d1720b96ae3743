/** The My Items tab. */
export function MyItemsTab() {
  return null;
}
