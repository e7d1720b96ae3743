/** The Want List tab. */
export function WantListTab() {
  return null;
}
