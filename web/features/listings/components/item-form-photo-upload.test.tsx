import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Item } from '../../../../common/schemas/listings';
import { jsonResponse, renderWithProviders } from '../../../testing/render';
import { ItemFormDialog } from './item-form-dialog';

/** Six bytes of a JPEG's start, as the form holds a chosen photo. */
const PHOTO = 'data:image/jpeg;base64,/9j/4AAQ';
const PHOTO_BYTES = [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10];

// jsdom cannot decode images; the photo is read as this data URL.
vi.mock('../photo', () => ({ fileToPhotoDataUrl: async () => PHOTO }));

const existing: Item = {
  id: 7,
  title: 'Bread maker',
  description: 'Makes a loaf overnight.',
  category: 'appliances',
  isService: false,
  imageUrl: '/photos/0123456789abcdef0123456789abcdef.webp',
  thumbnailUrl: '/photos/fedcba9876543210fedcba9876543210.webp',
  estimatedValue: 40,
  isActive: true,
  moderation: null,
  isReserved: false,
  allowedActions: ['edit', 'hide', 'delete'],
  viewCount: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

/**
 * Stub fetch: the photo analysis finds nothing, writes to /api/items succeed (after `queueFull`
 * answers 503 PHOTO_QUEUE_FULL); returns the writes.
 */
function stubApi(queueFull = 0) {
  let refusals = queueFull;
  const writes: Array<{ method: string; url: string; body: unknown; headers: HeadersInit | undefined }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (url === '/api/analyze-image') return jsonResponse({ provider: 'local', confidence: {} });
      if (url.startsWith('/api/items')) {
        writes.push({ method: init?.method ?? 'GET', url, body: init?.body, headers: init?.headers });
        if (refusals-- > 0) {
          return new Response(
            JSON.stringify({
              message: 'Too many photos are being processed right now.',
              code: 'PHOTO_QUEUE_FULL',
            }),
            { status: 503, headers: { 'content-type': 'application/json', 'retry-after': '0' } },
          );
        }
        return jsonResponse(existing, init?.method === 'POST' ? 201 : 200);
      }
      throw new Error(`Unexpected request ${init?.method ?? 'GET'} ${url}`);
    }),
  );
  return writes;
}

function renderDialog(item?: Item) {
  renderWithProviders(<ItemFormDialog open onOpenChange={() => {}} item={item} />);
  return within(screen.getByRole('dialog', { name: item ? 'Edit Item' : 'Add New Item' }));
}

async function choosePhoto(dialog: ReturnType<typeof renderDialog>) {
  await userEvent.upload(
    dialog.getByLabelText('Choose a photo file'),
    new File(['x'], 'cover.jpg', { type: 'image/jpeg' }),
  );
  await screen.findByText('We could not read details from this photo. Please fill them in.');
}

afterEach(() => vi.unstubAllGlobals());

describe('ItemFormDialog sends a new photo as a file (multipart/form-data, ADR 013)', () => {
  it('adds an item with the photo as the file part "photo", not as a data URL', async () => {
    const writes = stubApi();
    const dialog = renderDialog();
    await choosePhoto(dialog);
    await userEvent.type(dialog.getByLabelText('Title'), 'The Hobbit');
    await userEvent.type(dialog.getByLabelText('Description'), 'A paperback.');
    await userEvent.selectOptions(dialog.getByLabelText('Category'), 'books');
    await userEvent.type(dialog.getByLabelText('Estimated Value ($)'), '12.5');
    await userEvent.click(dialog.getByRole('button', { name: 'Add Item' }));

    await waitFor(() => expect(writes).toHaveLength(1));
    const [write] = writes;
    expect(write).toMatchObject({ method: 'POST', url: '/api/items' });
    expect(write?.body).toBeInstanceOf(FormData);
    // The browser sets multipart/form-data with its boundary itself.
    expect(write?.headers).toEqual({});
    const form = write?.body as FormData;
    expect(Object.fromEntries([...form.entries()].filter(([name]) => name !== 'photo'))).toEqual({
      title: 'The Hobbit',
      description: 'A paperback.',
      category: 'books',
      isService: 'false',
      estimatedValue: '12.5',
      isActive: 'true',
    });
    expect(form.has('imageUrl')).toBe(false);
    const photo = form.get('photo');
    expect(photo).toBeInstanceOf(File);
    expect((photo as File).type).toBe('image/jpeg');
    expect((photo as File).name).toBe('photo.jpg');
    expect([...new Uint8Array(await (photo as File).arrayBuffer())]).toEqual(PHOTO_BYTES);
  });

  it('replaces the photo of an item being edited the same way', async () => {
    const writes = stubApi();
    const dialog = renderDialog(existing);
    await choosePhoto(dialog);
    await userEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));

    await waitFor(() => expect(writes).toHaveLength(1));
    expect(writes[0]).toMatchObject({ method: 'PATCH', url: '/api/items/7' });
    const form = writes[0]?.body as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect(form.get('title')).toBe('Bread maker');
    expect(form.get('estimatedValue')).toBe('40');
    expect(form.get('photo')).toBeInstanceOf(File);
  });

  it('sends the item again after Retry-After while the photo queue is full', async () => {
    const writes = stubApi(2);
    const dialog = renderDialog();
    await choosePhoto(dialog);
    await userEvent.type(dialog.getByLabelText('Title'), 'The Hobbit');
    await userEvent.type(dialog.getByLabelText('Description'), 'A paperback.');
    await userEvent.selectOptions(dialog.getByLabelText('Category'), 'books');
    await userEvent.click(dialog.getByRole('button', { name: 'Add Item' }));

    expect(await screen.findByText('Your item has been added.')).toBeVisible();
    expect(writes).toHaveLength(3);
    for (const write of writes) expect((write.body as FormData).get('photo')).toBeInstanceOf(File);
  });

  it('sends JSON when the photo is kept or there is none', async () => {
    const writes = stubApi();
    const dialog = renderDialog(existing);
    await userEvent.clear(dialog.getByLabelText('Title'));
    await userEvent.type(dialog.getByLabelText('Title'), 'Bread maker, like new');
    await userEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));

    await waitFor(() => expect(writes).toHaveLength(1));
    expect(writes[0]?.headers).toEqual({ 'Content-Type': 'application/json' });
    expect(JSON.parse(String(writes[0]?.body))).toMatchObject({
      title: 'Bread maker, like new',
      imageUrl: existing.imageUrl,
    });
  });
});
