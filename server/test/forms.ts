/** One file of a multipart form. */
export interface FilePart {
  bytes: Buffer;
  type?: string;
  name?: string;
  field?: string;
}

/** A multipart/form-data body exactly as a browser's FormData sends it, for inject. */
export async function formBody(fields: Record<string, string>, ...files: FilePart[]) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) {
    form.append(
      file.field ?? 'photo',
      new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'image/jpeg' }),
      file.name ?? 'photo.jpg',
    );
  }
  const encoded = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    headers: { 'content-type': encoded.headers.get('content-type') ?? '' },
  };
}
