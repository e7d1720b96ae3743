/** A path's `:id` that names a row: a positive 32-bit whole number written plainly. */
export function isRouteId(id: string | undefined): id is string {
  return /^[1-9]\d{0,9}$/.test(id ?? '') && Number(id) <= 2_147_483_647;
}
