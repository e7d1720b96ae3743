/**
 * Where to go after signing in (issue 17): the member-only page a signed-out visitor asked for,
 * carried as `/login?next=...`. Only a path of this site is followed: anything that could leave it
 * (`//host`, `/\host`, a scheme, control characters) or is absurdly long gives `/`.
 */
export function safeReturnPath(next: string | null | undefined): string {
  if (!next || next.length > 512) return '/';
  if (!next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return '/';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(next)) return '/';
  try {
    const base = 'https://barterhood.invalid';
    const url = new URL(next, base);
    if (url.origin !== base) return '/';
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return '/';
  }
}

/** /login with the page to come back to (the current one), unless that is the home page. */
export function loginReturningTo(path: string): string {
  const back = safeReturnPath(path);
  return back === '/' ? '/login' : `/login?next=${encodeURIComponent(back)}`;
}
