import { describe, expect, it } from 'vitest';
import { HttpError, serviceUnavailable, tooManyRequests } from './errors';

describe('HttpError', () => {
  it('carries no stack frames for a client error (4xx), and leaves the limit as it was', () => {
    const limit = Error.stackTraceLimit;
    const error = tooManyRequests();
    expect(error.statusCode).toBe(429);
    expect(error.message).toBe('Too many attempts. Please wait a minute and try again.');
    expect(error.stack?.split('\n').filter((line) => line.trimStart().startsWith('at '))).toEqual([]);
    expect(Error.stackTraceLimit).toBe(limit);
  });

  it('keeps its stack for a server error (5xx), for the log', () => {
    const error = serviceUnavailable();
    expect(error).toBeInstanceOf(HttpError);
    expect(error.stack).toContain('errors.test.ts');
  });
});
