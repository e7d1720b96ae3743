import { FLYER_PRINT_DELAY_MS } from '#common/constants.ts';

/**
 * Print a flyer the way spec section 2 describes: open a new window, write the flyer document into
 * it, call print() after FLYER_PRINT_DELAY_MS (so the QR image is laid out) and close the window
 * once print() returns. Returns false when the browser blocked the window.
 */
export function printFlyer(html: string): boolean {
  const printWindow = window.open('', '_blank');
  if (!printWindow) return false;
  printWindow.document.open();
  printWindow.document.write(html);
  printWindow.document.close();
  window.setTimeout(() => {
    if (printWindow.closed) return;
    printWindow.focus();
    printWindow.print();
    printWindow.close();
  }, FLYER_PRINT_DELAY_MS);
  return true;
}

/** Save an HTML document as a file through the browser's download (a blob URL, revoked afterwards). */
export function downloadHtmlFile(fileName: string, html: string): void {
  const url = URL.createObjectURL(new Blob([html], { type: 'text/html;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked a moment later: some browsers read the blob after click() returns.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
