import { describe, expect, it } from 'vitest';
import { loginReturningTo, safeReturnPath } from './return-path';

describe('safeReturnPath', () => {
  it.each([
    ['/profile', '/profile'],
    ['/barters/12?box=past', '/barters/12?box=past'],
    ['/profile?tab=account#sessions', '/profile?tab=account#sessions'],
    ['/members/abc/../../profile', '/profile'],
    // Encoded characters stay encoded: a path of this site (a 404 at worst), never a header.
    ['/%0d%0aSet-Cookie:x', '/%0d%0aSet-Cookie:x'],
  ])('follows a path of this site: %s', (next, expected) => {
    expect(safeReturnPath(next)).toBe(expected);
  });

  it.each([
    null,
    '',
    'profile',
    'https://evil.example/profile',
    '//evil.example/profile',
    '/\\evil.example',
    '/profile\u0000',
    '/pro\nfile',
    'javascript:alert(1)',
    ` /profile`,
    `/${'a'.repeat(600)}`,
  ])('goes home instead of %j', (next) => {
    expect(safeReturnPath(next)).toBe('/');
  });

  it('builds the login link that comes back, leaving the home page out', () => {
    expect(loginReturningTo('/barters/7?box=past')).toBe('/login?next=%2Fbarters%2F7%3Fbox%3Dpast');
    expect(loginReturningTo('/')).toBe('/login');
    expect(loginReturningTo('//evil.example')).toBe('/login');
  });
});
