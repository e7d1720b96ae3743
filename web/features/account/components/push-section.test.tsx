import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import type { PushDevice } from '#common/schemas/push.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { recordRequests, server } from '#web/testing/server.ts';
import { PushSection } from './push-section';

// Web Push in the Account tab (ADR 087): the member's devices by browser and system, this one
// marked, each removable by keyboard; a browser without push says so instead of offering it.

const URL = '/api/push/subscriptions';
const phone: PushDevice = {
  id: 7,
  endpoint: 'https://fcm.googleapis.com/fcm/send/phone',
  device: 'Chrome on Android',
  createdAt: '2026-11-20T10:00:00.000Z',
};
const laptop: PushDevice = {
  id: 8,
  endpoint: 'https://updates.push.services.mozilla.com/wpush/v2/laptop',
  device: 'Firefox on Windows',
  createdAt: '2026-11-27T10:00:00.000Z',
};

describe('PushSection', () => {
  it('lists the member’s devices and removes one by keyboard', async () => {
    let devices = [laptop, phone];
    server.use(
      http.get(URL, () => HttpResponse.json(devices)),
      http.delete(`${URL}/:id`, ({ params }) => {
        devices = devices.filter((device) => String(device.id) !== params.id);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const requests = recordRequests();
    renderWithProviders(<PushSection />, { path: '/profile' });
    const list = await screen.findByRole('list', { name: 'Devices that get notifications' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      expect.stringMatching(/^Firefox on WindowsAdded Nov 27, 2026/),
      expect.stringMatching(/^Chrome on AndroidAdded Nov 20, 2026/),
    ]);
    const remove = screen.getByRole('button', {
      name: 'Stop notifications on Chrome on Android, added Nov 20, 2026',
    });
    remove.focus();
    await userEvent.setup().keyboard('{Enter}');
    expect(await requests.bodiesOf(`DELETE ${URL}/7`)).toHaveLength(1);
    await expect.poll(() => within(list).queryAllByRole('listitem').length).toBe(1);
  });

  it('says so when the browser cannot get pushes, and offers nothing to turn on', async () => {
    // jsdom has neither a service worker nor PushManager: the section must not offer what cannot work.
    server.use(http.get(URL, () => HttpResponse.json([])));
    renderWithProviders(<PushSection />, { path: '/profile' });
    expect(await screen.findByText('This browser cannot show notifications from websites.')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Turn on notifications on this device' })).toBeNull();
  });
});
