import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Item } from '#common/schemas/listings.ts';
import { apiTransport } from '#web/lib/api-client.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { server } from '#web/testing/server.ts';
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
  traded: null,
  allowedActions: ['edit', 'hide', 'delete'],
  viewCount: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

/** A write to /api/items: as the server received it, with the body the form handed to fetch. */
interface Write {
  method: string;
  url: string;
  contentType: string | null;
  body: unknown;
}

/**
 * The API: the photo analysis finds nothing, writes to /api/items succeed (after `queueFull`
 * answers 503 PHOTO_QUEUE_FULL); returns the writes. The bodies are read where the client hands
 * them to fetch (apiTransport, watched, not replaced): jsdom's FormData does not cross into Node's
 * fetch intact, as it does in a browser, so the server's copy of a file part would not be the file.
 */
function answerApi(queueFull = 0) {
  let refusals = queueFull;
  const received: Omit<Write, 'body'>[] = [];
  const write = ({ request }: { request: Request }) => {
    received.push({
      method: request.method,
      url: new URL(request.url).pathname,
      contentType: request.headers.get('content-type'),
    });
    if (refusals-- > 0) {
      return HttpResponse.json(
        { message: 'Too many photos are being processed right now.', code: 'PHOTO_QUEUE_FULL' },
        { status: 503, headers: { 'retry-after': '0' } },
      );
    }
    return HttpResponse.json(existing, { status: request.method === 'POST' ? 201 : 200 });
  };
  server.use(
    http.post('/api/analyze-image', () => HttpResponse.json({ provider: 'local', confidence: {} })),
    http.post('/api/items', write),
    http.patch('/api/items/:id', write),
    http.post('/api/items/:id/photos', write),
    http.put('/api/items/:id/photos', write),
  );
  const transport = vi.spyOn(apiTransport, 'fetch');
  return {
    get writes(): Write[] {
      const bodies = transport.mock.calls
        .filter(([url]) => String(url).startsWith('/api/items'))
        .map(([, init]) => init?.body);
      return received.map((write, index) => ({ ...write, body: bodies[index] }));
    },
  };
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

afterEach(() => vi.restoreAllMocks());

describe('ItemFormDialog sends a new photo as a file (multipart/form-data, ADR 013)', () => {
  it('adds an item with the photo as the file part "photo", not as a data URL', async () => {
    const api = answerApi();
    const dialog = renderDialog();
    await choosePhoto(dialog);
    await userEvent.type(dialog.getByLabelText('Title'), 'The Hobbit');
    await userEvent.type(dialog.getByLabelText('Description'), 'A paperback.');
    await userEvent.selectOptions(dialog.getByLabelText('Category'), 'books');
    await userEvent.type(dialog.getByLabelText('Estimated Value ($)'), '12.5');
    await userEvent.click(dialog.getByRole('button', { name: 'Add Item' }));

    await waitFor(() => expect(api.writes).toHaveLength(1));
    const [write] = api.writes;
    expect(write).toMatchObject({ method: 'POST', url: '/api/items' });
    expect(write?.body).toBeInstanceOf(FormData);
    // The browser sets multipart/form-data with its boundary itself.
    expect(write?.contentType).toMatch(/^multipart\/form-data; boundary=/);
    const form = write?.body as FormData;
    expect(Object.fromEntries([...form.entries()].filter(([name]) => name !== 'photo'))).toEqual({
      title: 'The Hobbit',
      description: 'A paperback.',
      category: 'books',
      isService: 'false',
      condition: '',
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

  it('adds a photo to an item being edited the same way, after its fields (ADR 082)', async () => {
    const api = answerApi();
    const dialog = renderDialog(existing);
    await userEvent.upload(
      dialog.getByLabelText('Choose a photo file'),
      new File(['x'], 'second.jpg', { type: 'image/jpeg' }),
    );
    // Not the cover: the analysis (which reads the cover) is not asked.
    expect(await dialog.findByRole('img', { name: 'Photo 2 of 2' })).toBeInTheDocument();
    await userEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));

    await waitFor(() => expect(api.writes).toHaveLength(2));
    expect(api.writes[0]).toMatchObject({
      method: 'PATCH',
      url: '/api/items/7',
      contentType: 'application/json',
    });
    expect(JSON.parse(String(api.writes[0]?.body))).toMatchObject({
      title: 'Bread maker',
      estimatedValue: 40,
    });
    expect(api.writes[1]).toMatchObject({ method: 'POST', url: '/api/items/7/photos' });
    const form = api.writes[1]?.body as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect([...form.keys()]).toEqual(['photo']);
    expect([...new Uint8Array(await (form.get('photo') as File).arrayBuffer())]).toEqual(PHOTO_BYTES);
  });

  it('sends the item again after Retry-After while the photo queue is full', async () => {
    const api = answerApi(2);
    const dialog = renderDialog();
    await choosePhoto(dialog);
    await userEvent.type(dialog.getByLabelText('Title'), 'The Hobbit');
    await userEvent.type(dialog.getByLabelText('Description'), 'A paperback.');
    await userEvent.selectOptions(dialog.getByLabelText('Category'), 'books');
    await userEvent.click(dialog.getByRole('button', { name: 'Add Item' }));

    expect(await screen.findByText('Your item has been added.')).toBeVisible();
    expect(api.writes).toHaveLength(3);
    for (const write of api.writes) expect((write.body as FormData).get('photo')).toBeInstanceOf(File);
  });

  it('sends JSON when the photo is kept or there is none', async () => {
    const api = answerApi();
    const dialog = renderDialog(existing);
    await userEvent.clear(dialog.getByLabelText('Title'));
    await userEvent.type(dialog.getByLabelText('Title'), 'Bread maker, like new');
    await userEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));

    await waitFor(() => expect(api.writes).toHaveLength(1));
    expect(api.writes[0]).toMatchObject({
      method: 'PATCH',
      url: '/api/items/7',
      contentType: 'application/json',
    });
    const body = JSON.parse(String(api.writes[0]?.body));
    expect(body).toMatchObject({ title: 'Bread maker, like new' });
    // The photos are their own requests (ADR 082); the edit leaves them alone.
    expect(body).not.toHaveProperty('imageUrl');
  });
});
