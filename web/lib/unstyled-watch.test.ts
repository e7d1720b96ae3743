import { afterEach, describe, expect, it, vi } from 'vitest';
import { drawnClasses, namedClasses, unstyledBy, watchForUnstyled } from './unstyled-watch';

/** Every mutation record delivered: observers are called in a microtask after the change. */
const delivered = () => new Promise<void>((resolve) => queueMicrotask(resolve));

/** A stylesheet in the page, as the whole one boot adds (read, whatever its media). */
function sheet(css: string): CSSStyleSheet | null {
  const style = document.createElement('style');
  style.textContent = css;
  document.head.append(style);
  return style.sheet;
}

const WHOLE =
  '.grid{display:grid}.gap-4{gap:1rem}.text-xs{font-size:.75rem}.sr-only{position:absolute}' +
  '@media (min-width:40rem){.sm\\:grid{display:grid}}' +
  ':where(.space-y-2>:not(:last-child)){margin:0}.line-through{text-decoration:line-through}' +
  '.fixed{position:fixed}.justify-items-start{justify-items:start}';

/** Watch `document.body` as web/boot.ts does, the page's classes read as it was drawn. */
function watch(onUnstyled: () => void, more: readonly string[] = []) {
  const whole = sheet(WHOLE);
  return watchForUnstyled(
    document.body,
    unstyledBy(drawnClasses(document.body, more), () => [whole]),
    onUnstyled,
  );
}

describe('watching for what the app draws unstyled (ADR 119)', () => {
  afterEach(() => {
    document.body.innerHTML = '';
    document.head.innerHTML = '';
  });

  it('reads the classes the page was drawn with, and those its part is written for beyond them', () => {
    document.body.innerHTML =
      '<main class="grid gap-4"><article class="rounded-2xl  border"><svg class="lucide h-3"></svg></article></main>';
    expect([...drawnClasses(document, ['min-w-5'])].sort()).toEqual(
      ['border', 'gap-4', 'grid', 'h-3', 'lucide', 'min-w-5', 'rounded-2xl'].sort(),
    );
  });

  it("reads the whole stylesheet's classes, in conditions and inside parentheses too; nothing while it is not there", () => {
    expect([...(namedClasses([sheet(WHOLE)]) ?? [])].sort()).toEqual(
      [
        'fixed',
        'gap-4',
        'grid',
        'justify-items-start',
        'line-through',
        'sm:grid',
        'space-y-2',
        'sr-only',
        'text-xs',
      ].sort(),
    );
    expect(namedClasses([sheet(WHOLE), null])).toBeUndefined();
  });

  it('says nothing while what the app draws is styled by the page, or needs no style', async () => {
    document.body.innerHTML = '<main class="grid gap-4"><p class="text-xs">Drawn</p></main>';
    const unstyled = vi.fn();
    const stop = watch(unstyled, ['min-w-5']);
    const main = document.querySelector('main');
    main?.insertAdjacentHTML(
      'beforeend',
      // An icon's own class has no rule; a count badge's are written into every page (ADR 113).
      '<p class="text-xs">A live update</p><span>plain</span><svg class="lucide lucide-x"></svg><b class="min-w-5">3</b>',
    );
    main?.firstElementChild?.setAttribute('class', 'grid text-xs');
    main?.append('text');
    await delivered();
    expect(unstyled).not.toHaveBeenCalled();
    stop();
  });

  it('says so once, before the browser paints, when an element comes with a class the page lacks', async () => {
    document.body.innerHTML = '<main class="grid gap-4"><p class="text-xs">Drawn</p></main>';
    const unstyled = vi.fn();
    watch(unstyled);
    // The trade circle line a live update adds to a card: its link's hidden words are in a class the
    // feed as drawn did not use.
    const line = document.createElement('div');
    line.className = 'grid text-xs';
    line.innerHTML = '<a href="/circles/3">See the trade circle <span class="sr-only">for Tent</span></a>';
    document.querySelector('main')?.append(line);
    await delivered();
    expect(unstyled).toHaveBeenCalledTimes(1);
    // Once is enough: the whole stylesheet is applied.
    document.querySelector('main')?.insertAdjacentHTML('beforeend', '<p class="justify-items-start">x</p>');
    await delivered();
    expect(unstyled).toHaveBeenCalledTimes(1);
  });

  it('says so when an element drawn with the page is given a class the page lacks', async () => {
    document.body.innerHTML = '<main class="grid"><p class="text-xs">Drawn</p></main>';
    const unstyled = vi.fn();
    watch(unstyled);
    document.querySelector('p')?.classList.add('line-through');
    await delivered();
    expect(unstyled).toHaveBeenCalledTimes(1);
  });

  it('looks after a dialog drawn outside the app root, at the end of the body', async () => {
    document.body.innerHTML = '<div id="root" class="grid"></div>';
    const unstyled = vi.fn();
    watch(unstyled);
    const portal = document.createElement('div');
    portal.innerHTML = '<div role="dialog" class="fixed"></div>';
    document.body.append(portal);
    await delivered();
    expect(unstyled).toHaveBeenCalledTimes(1);
  });

  it('counts every class the page lacks while the whole stylesheet has not loaded', async () => {
    document.body.innerHTML = '<main class="grid"></main>';
    const unstyled = vi.fn();
    watchForUnstyled(
      document.body,
      unstyledBy(drawnClasses(document.body), () => [null]),
      unstyled,
    );
    document.querySelector('main')?.insertAdjacentHTML('beforeend', '<svg class="lucide-x"></svg>');
    await delivered();
    expect(unstyled).toHaveBeenCalledTimes(1);
  });

  it('stops watching when asked', async () => {
    document.body.innerHTML = '<main class="grid"></main>';
    const unstyled = vi.fn();
    const stop = watch(unstyled);
    stop();
    document.querySelector('main')?.insertAdjacentHTML('beforeend', '<p class="sr-only">x</p>');
    await delivered();
    expect(unstyled).not.toHaveBeenCalled();
  });
});
