/**
 * True when the address points at the computer that opens it (localhost, 127.0.0.0/8, ::1,
 * 0.0.0.0, *.localhost): a flyer's QR code with such an address leads a neighbor's phone nowhere.
 * An address that does not parse counts as local too (it leads nowhere either).
 */
export function isLoopbackUrl(address: string): boolean {
  let host: string;
  try {
    host = new URL(address).hostname.toLowerCase();
  } catch {
    return true;
  }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '::1' ||
    host === '0.0.0.0' ||
    host === '::' ||
    /^127(\.\d{1,3}){3}$/.test(host)
  );
}
