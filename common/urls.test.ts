import { describe, expect, it } from 'vitest';
import { isLoopbackUrl } from './urls';

describe('isLoopbackUrl', () => {
  it.each([
    'http://localhost:5000',
    'http://LOCALHOST',
    'http://127.0.0.1:5199',
    'http://127.1.2.3',
    'http://[::1]:5000',
    'http://0.0.0.0:5000',
    'http://app.localhost',
    'not a url',
  ])('%s points at this computer', (address) => {
    expect(isLoopbackUrl(address)).toBe(true);
  });

  it.each([
    'https://barter.example.org',
    'http://192.168.1.20:5000',
    'https://localhost.example.com',
    'http://128.0.0.1',
  ])('%s can be reached from elsewhere', (address) => {
    expect(isLoopbackUrl(address)).toBe(false);
  });
});
