import { useLayoutEffect, useRef, useState } from 'react';

/** A letter page at CSS's 96 px per inch: the size the flyer documents are laid out for. */
const SHEET_WIDTH_PX = 8.5 * 96;
const SHEET_HEIGHT_PX = 11 * 96;

/**
 * A flyer document shown as it will print: the very HTML that is printed and downloaded, in an
 * iframe at letter size, scaled down to the width available. Not sandboxed (test and accessibility
 * tools must reach into it); scripts cannot run there anyway: the flyer has none, its text is
 * escaped, and both its own CSP and the app's forbid inline scripts.
 */
export function FlyerPreview({ html, title }: { html: string; title: string }) {
  const container = useRef<HTMLDivElement>(null);
  const [scale, setScale] = useState(1);

  useLayoutEffect(() => {
    const element = container.current;
    if (!element) return;
    const update = () => {
      const width = element.clientWidth;
      if (width > 0) setScale(Math.min(1, width / SHEET_WIDTH_PX));
    };
    update();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(update);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  return (
    <div ref={container} className="mx-auto w-full max-w-[816px]">
      <div
        className="relative overflow-hidden rounded-lg border border-slate-300 bg-white shadow-md"
        style={{ height: SHEET_HEIGHT_PX * scale }}
      >
        <iframe
          title={title}
          srcDoc={html}
          className="absolute top-0 left-0 origin-top-left border-0"
          style={{ width: SHEET_WIDTH_PX, height: SHEET_HEIGHT_PX, transform: `scale(${scale})` }}
        />
      </div>
    </div>
  );
}
