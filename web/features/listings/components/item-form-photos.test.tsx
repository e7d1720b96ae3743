import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Item } from '#common/schemas/listings.ts';
import { apiTransport } from '#web/lib/api-client.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { server } from '#web/testing/server.ts';
import { ItemFormDialog } from './item-form-dialog';

// jsdom cannot decode images: each chosen file is read as a data URL naming it.
vi.mock('../photo', () => ({
  fileToPhotoDataUrl: async (file: File) => `data:image/jpeg;base64,${btoa(file.name)}`,
}));

const served = (name: string) => ({ imageUrl: `/photos/${name}.jpg`, thumbnailUrl: `/photos/${name}.webp` });

const base: Item = {
  id: 7,
  title: 'Road bike',
  description: 'Steel frame.',
  category: 'bikes',
  isService: false,
  imageUrl: null,
  thumbnailUrl: null,
  photos: [],
  condition: null,
  estimatedValue: null,
  isActive: true,
  moderation: null,
  isReserved: false,
  traded: null,
  allowedActions: ['edit', 'hide', 'delete'],
  viewCount: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

/**
 * A server that keeps one item's photos as the real one does (ADR 082): a new item takes its cover,
 * POST …/photos adds one last (named after the file it was read from), PUT …/photos keeps and orders.
 * Returns the requests it answered, in order.
 */
function photoServer(start: Item = base) {
  let item: Item = { ...start };
  const requests: string[] = [];
  let bodies: unknown[] = [];
  const withPhotos = (photos: NonNullable<Item['photos']>): Item => ({
    ...item,
    photos,
    imageUrl: photos[0]?.imageUrl ?? null,
    thumbnailUrl: photos[0]?.thumbnailUrl ?? null,
  });
  // The bodies are read where the client hands them to fetch: jsdom's FormData does not cross into
  // Node's fetch intact (see item-form-photo-upload.test.tsx). Requests go one at a time.
  const transport = vi.spyOn(apiTransport, 'fetch');
  const nameOf = async () => {
    const form = transport.mock.calls.at(-1)?.[1]?.body as FormData;
    const photo = form.get('photo');
    bodies.push(Object.fromEntries([...form.entries()].filter(([name]) => name !== 'photo')));
    return photo instanceof Blob ? new TextDecoder().decode(await photo.arrayBuffer()) : null;
  };
  server.use(
    http.post('/api/analyze-image', () => HttpResponse.json({ provider: 'local', confidence: {} })),
    http.post('/api/items', async () => {
      requests.push('POST /api/items');
      const name = await nameOf();
      item = withPhotos(name ? [served(name)] : []);
      return HttpResponse.json(item, { status: 201 });
    }),
    http.patch('/api/items/:id', async ({ request }) => {
      requests.push('PATCH');
      bodies.push(await request.json());
      return HttpResponse.json(item);
    }),
    http.post('/api/items/:id/photos', async () => {
      const name = await nameOf();
      requests.push(`add ${name}`);
      item = withPhotos([...(item.photos ?? []), served(name ?? 'none')]);
      return HttpResponse.json(item);
    }),
    http.put('/api/items/:id/photos', async ({ request }) => {
      const { photos } = (await request.json()) as { photos: string[] };
      requests.push(`order ${photos.map((url) => url.slice('/photos/'.length, -4)).join(',')}`);
      item = withPhotos(photos.map((url) => served(url.slice('/photos/'.length, -4))));
      return HttpResponse.json(item);
    }),
  );
  return {
    requests,
    get item() {
      return item;
    },
    get bodies() {
      const taken = bodies;
      bodies = [];
      return taken;
    },
  };
}

function renderDialog(item?: Item) {
  renderWithProviders(<ItemFormDialog open onOpenChange={() => {}} item={item} />);
  return within(screen.getByRole('dialog', { name: item ? 'Edit Item' : 'Add New Item' }));
}

async function choose(dialog: ReturnType<typeof renderDialog>, ...names: string[]) {
  await userEvent.upload(
    dialog.getByLabelText('Choose a photo file'),
    names.map((name) => new File([name], name, { type: 'image/jpeg' })),
  );
}

const photoAlts = (dialog: ReturnType<typeof renderDialog>) =>
  within(dialog.getByRole('list', { name: 'Your photos, the cover first' }))
    .getAllByRole('img')
    .map((img) => img.getAttribute('src'));

afterEach(() => vi.restoreAllMocks());

describe('ItemFormDialog: several photos and a condition (ADR 082)', () => {
  it('adds three photos, moves the last to the cover by keyboard, and saves them in that order', async () => {
    const api = photoServer();
    const dialog = renderDialog();
    await choose(dialog, 'a', 'b', 'c');
    await screen.findByText('We could not read details from this photo. Please fill them in.');
    expect(dialog.getByText(/3 of 8\./)).toBeInTheDocument();
    expect(dialog.getByRole('img', { name: 'Photo 1 of 3 (cover)' })).toBeInTheDocument();

    // Move photo 3 up twice with the keyboard: it becomes the cover.
    dialog.getByRole('button', { name: 'Move photo 3 up' }).focus();
    await userEvent.keyboard('{Enter}');
    await userEvent.click(dialog.getByRole('button', { name: 'Move photo 2 up' }));
    expect(screen.getByText('Photo 2 is now photo 1 of 3, the cover.')).toBeInTheDocument();
    expect(photoAlts(dialog)).toEqual([
      `data:image/jpeg;base64,${btoa('c')}`,
      `data:image/jpeg;base64,${btoa('a')}`,
      `data:image/jpeg;base64,${btoa('b')}`,
    ]);
    expect(dialog.getByRole('button', { name: 'Move photo 1 up' })).toBeDisabled();
    expect(dialog.getByRole('button', { name: 'Move photo 3 down' })).toBeDisabled();

    await userEvent.type(dialog.getByLabelText('Title'), 'Road bike');
    await userEvent.type(dialog.getByLabelText('Description'), 'Steel frame.');
    await userEvent.selectOptions(dialog.getByLabelText('Category'), 'bikes');
    await userEvent.selectOptions(dialog.getByLabelText('Condition (optional)'), 'Like new');
    await userEvent.click(dialog.getByRole('button', { name: 'Add Item' }));

    expect(await screen.findByText('Your item has been added.')).toBeVisible();
    // The cover comes with the item, the others follow it in the form's order.
    expect(api.requests).toEqual(['POST /api/items', 'add a', 'add b']);
    expect(api.bodies[0]).toMatchObject({ title: 'Road bike', condition: 'like-new' });
    expect(api.item.photos?.map((photo) => photo.imageUrl)).toEqual([
      '/photos/c.jpg',
      '/photos/a.jpg',
      '/photos/b.jpg',
    ]);
  });

  it('edits: removes one, adds one and reorders, in as few requests as that takes', async () => {
    const item: Item = {
      ...base,
      photos: [served('a'), served('b'), served('c')],
      imageUrl: '/photos/a.jpg',
      thumbnailUrl: '/photos/a.webp',
      condition: 'good',
    };
    const api = photoServer(item);
    const dialog = renderDialog(item);
    expect(dialog.getByLabelText('Condition (optional)')).toHaveValue('good');
    await userEvent.click(dialog.getByRole('button', { name: 'Remove photo 2' }));
    expect(screen.getByText('Photo 2 removed.')).toBeInTheDocument();
    await choose(dialog, 'd');
    // d to the front: d, a, c.
    await userEvent.click(dialog.getByRole('button', { name: 'Move photo 3 up' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Move photo 2 up' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('Your item has been updated.')).toBeVisible();
    expect(api.requests).toEqual(['PATCH', 'order a,c', 'add d', 'order d,a,c']);
    expect(api.item.imageUrl).toBe('/photos/d.jpg');
  });

  it('stops at eight photos and says so', async () => {
    const seven = 'abcdefg'.split('').map(served);
    const item: Item = { ...base, photos: seven, imageUrl: '/photos/a.jpg', thumbnailUrl: '/photos/a.webp' };
    photoServer(item);
    const dialog = renderDialog(item);
    await choose(dialog, 'h', 'i');
    expect(await screen.findByText('An item can have at most 8 photos.')).toBeInTheDocument();
    expect(photoAlts(dialog)).toHaveLength(8);
    expect(dialog.getByRole('button', { name: 'Choose File' })).toBeDisabled();
    expect(dialog.getByRole('button', { name: 'Take Photo' })).toBeDisabled();
  });

  it('has no condition for a service', async () => {
    photoServer();
    const dialog = renderDialog();
    expect(dialog.getByLabelText('Condition (optional)')).toBeInTheDocument();
    await userEvent.click(dialog.getByRole('switch', { name: 'This is a service' }));
    await waitFor(() => expect(dialog.queryByLabelText('Condition (optional)')).not.toBeInTheDocument());
  });
});
