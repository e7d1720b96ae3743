/** A data URL's bytes as a Blob of its declared type (what the form holds, sent as a file). */
export function dataUrlToBlob(dataUrl: string): Blob {
  const comma = dataUrl.indexOf(',');
  const header = dataUrl.slice(0, comma);
  const type = /^data:([^;,]+)/.exec(header)?.[1] ?? 'application/octet-stream';
  const text = dataUrl.slice(comma + 1);
  if (!header.endsWith(';base64')) return new Blob([decodeURIComponent(text)], { type });
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new Blob([bytes], { type });
}

const EXTENSIONS: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };

/**
 * An item form as multipart/form-data (ADR 013): each field the form holds as text (booleans as
 * "true"/"false", a cleared amount as ""), and the new photo, a data URL in the form, as the file
 * part `photo`: its bytes are sent as they are instead of a third more as base64 inside JSON, and the
 * server streams them. Fields left undefined are left out (an edit changes only what it sends).
 */
export function itemFormData(values: Record<string, unknown>, photoDataUrl: string): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(values)) {
    if (name === 'imageUrl' || value === undefined) continue;
    const blank = value === null || (typeof value === 'number' && Number.isNaN(value));
    form.append(name, blank ? '' : String(value));
  }
  const photo = dataUrlToBlob(photoDataUrl);
  form.append('photo', photo, `photo.${EXTENSIONS[photo.type] ?? 'jpg'}`);
  return form;
}

/** The body of an item create or edit: multipart with the photo as a file when there is a new one, JSON otherwise. */
export function itemRequestBody<T extends { imageUrl?: string | null }>(values: T): T | FormData {
  return values.imageUrl?.startsWith('data:') ? itemFormData(values, values.imageUrl) : values;
}
