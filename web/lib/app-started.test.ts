import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** Each test gets a fresh module (its state is the page's), and frames it can run by hand. */
let frames: Array<() => void> = [];
const runFrames = () => {
  for (let i = 0; i < 3; i++) {
    const now = frames;
    frames = [];
    for (const frame of now) frame();
  }
};
const started = () => document.documentElement.dataset.app === 'started';

describe('the started mark of a page', () => {
  beforeEach(() => {
    vi.resetModules();
    frames = [];
    vi.stubGlobal('requestAnimationFrame', (callback: () => void) => frames.push(callback));
    delete document.documentElement.dataset.app;
  });
  afterEach(() => vi.unstubAllGlobals());

  it('is set once the screen is mounted and no lazy part is loading, two frames later', async () => {
    const { screenMounted, trackLoad } = await import('./app-started');
    let arrive!: () => void;
    const part = trackLoad(new Promise<void>((resolve) => (arrive = resolve)));
    screenMounted();
    runFrames();
    expect(started()).toBe(false);
    arrive();
    await part;
    await Promise.resolve();
    expect(started()).toBe(false);
    runFrames();
    expect(started()).toBe(true);
  });

  it('is taken back while a part loads again, and a failed load counts as settled', async () => {
    const { screenMounted, trackLoad } = await import('./app-started');
    screenMounted();
    runFrames();
    expect(started()).toBe(true);
    const failed = trackLoad(Promise.reject(new Error('offline')));
    expect(started()).toBe(false);
    await failed.catch(() => undefined);
    await Promise.resolve();
    runFrames();
    expect(started()).toBe(true);
  });

  it('is not set before the screen is mounted', async () => {
    const { trackLoad } = await import('./app-started');
    await trackLoad(Promise.resolve(1));
    runFrames();
    expect(started()).toBe(false);
  });

  it('resolves whenAppStarted the first time the mark is set, and at once after', async () => {
    const { screenMounted, trackLoad, whenAppStarted } = await import('./app-started');
    let resolved = false;
    void whenAppStarted().then(() => {
      resolved = true;
    });
    let arrive!: () => void;
    const part = trackLoad(new Promise<void>((resolve) => (arrive = resolve)));
    screenMounted();
    runFrames();
    await Promise.resolve();
    expect(resolved).toBe(false);
    arrive();
    await part;
    await Promise.resolve();
    runFrames();
    await Promise.resolve();
    expect(resolved).toBe(true);
    let again = false;
    await whenAppStarted().then(() => {
      again = true;
    });
    expect(again).toBe(true);
  });
});
