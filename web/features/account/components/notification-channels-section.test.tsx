import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NotificationChannels } from '#common/schemas/notification-channels.ts';
import type { PushDevice } from '#common/schemas/push.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { recordRequests, server } from '#web/testing/server.ts';
import { NotificationChannelsSection } from './notification-channels-section';

// One choice per group of notifications (ADR 090): Push, Email digest or None, by keyboard; with
// push chosen and no device, the section says so and offers to turn push on for this browser.

const URL = '/api/account/notification-channels';
const DEFAULTS: NotificationChannels = {
  proposals: 'digest',
  messages: 'digest',
  barters: 'push',
  circles: 'push',
  listing_alerts: 'push',
  listings: 'push',
  moderation: 'push',
};
const phone: PushDevice = {
  id: 7,
  endpoint: 'https://fcm.googleapis.com/fcm/send/phone',
  device: 'Chrome on Android',
  createdAt: '2026-11-20T10:00:00.000Z',
};

function serve(devices: PushDevice[]) {
  let saved = { ...DEFAULTS };
  server.use(
    http.get(URL, () => HttpResponse.json(saved)),
    http.put(URL, async ({ request }) => {
      saved = { ...saved, ...((await request.json()) as Partial<NotificationChannels>) };
      return HttpResponse.json(saved);
    }),
    http.get('/api/push/subscriptions', () => HttpResponse.json(devices)),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('NotificationChannelsSection', () => {
  it('shows each group’s choice and moves it by keyboard: listing alerts to None, proposals to Push', async () => {
    serve([phone]);
    const requests = recordRequests();
    renderWithProviders(<NotificationChannelsSection />, { path: '/profile' });
    const alerts = await screen.findByRole('group', {
      name: 'New listings matching your saved searches and wants',
    });
    const proposals = screen.getByRole('group', {
      name: 'New proposals, counter-offers, hand-over reminders and no-show reports',
    });
    expect(within(alerts).getByRole('radio', { name: 'Push' })).toBeChecked();
    expect(within(proposals).getByRole('radio', { name: 'Email digest' })).toBeChecked();
    expect(screen.getAllByRole('group').map((group) => group.querySelector('legend')?.textContent)).toEqual([
      'New proposals, counter-offers, hand-over reminders and no-show reports',
      'New messages',
      'Your barters: answers, hand-over plans, completions and ratings',
      'Trade circles and swap days',
      'New listings matching your saved searches and wants',
      'Whether your listings are still available',
      'Warnings from moderators',
    ]);

    const user = userEvent.setup();
    // Arrow keys move a radio group's choice: Push -> Email digest -> None.
    within(alerts).getByRole('radio', { name: 'Push' }).focus();
    await user.keyboard('{ArrowRight}{ArrowRight}');
    await expect
      .poll(() => (within(alerts).getByRole('radio', { name: 'None' }) as HTMLInputElement).checked)
      .toBe(true);
    within(proposals).getByRole('radio', { name: 'Email digest' }).focus();
    await user.keyboard('{ArrowLeft}');
    await expect
      .poll(() => (within(proposals).getByRole('radio', { name: 'Push' }) as HTMLInputElement).checked)
      .toBe(true);
    const bodies = await requests.bodiesOf(`PUT ${URL}`);
    expect(bodies.at(-1)).toEqual({ proposals: 'push' });
    expect(bodies).toContainEqual({ listing_alerts: 'none' });
    // A device gets pushes: nothing to warn about.
    expect(screen.queryByText(/No device gets push notifications/)).toBeNull();
  });

  it('with Push chosen and no device, says so and offers to turn on push for this browser', async () => {
    serve([]);
    // A browser that can push, whose member says no to the permission.
    vi.stubGlobal('PushManager', class {});
    vi.stubGlobal('Notification', { requestPermission: async () => 'denied' });
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { getRegistration: async () => undefined },
    });
    try {
      renderWithProviders(<NotificationChannelsSection />, { path: '/profile' });
      expect(
        await screen.findByText(
          'No device gets push notifications from you yet, so what you chose to get by push reaches you only on your bell.',
        ),
      ).toBeVisible();
      const turnOn = screen.getByRole('button', { name: 'Turn on push for this browser' });
      turnOn.focus();
      await userEvent.setup().keyboard('{Enter}');
      expect(await screen.findByText('Notifications are blocked')).toBeVisible();
    } finally {
      Reflect.deleteProperty(navigator, 'serviceWorker');
    }
  });

  it('shows a click at once, while the save is on its way, and the saved choice again when refused', async () => {
    serve([phone]);
    let answer: ((response: Response) => void) | undefined;
    server.use(http.put(URL, () => new Promise<Response>((resolve) => (answer = resolve)), { once: true }));
    renderWithProviders(<NotificationChannelsSection />, { path: '/profile' });
    const messages = await screen.findByRole('group', { name: 'New messages' });
    const none = within(messages).getByRole('radio', { name: 'None' });
    // Checked in the click's own render, nothing awaited: the save has not been answered.
    fireEvent.click(none);
    expect(none).toBeChecked();
    expect(within(messages).getByRole('radio', { name: 'Email digest' })).not.toBeChecked();
    await expect.poll(() => answer !== undefined).toBe(true);
    answer?.(
      HttpResponse.json({ message: 'The service is busy.', code: 'SERVICE_UNAVAILABLE' }, { status: 503 }),
    );
    expect(await screen.findByText('Not saved')).toBeVisible();
    await expect
      .poll(() => (within(messages).getByRole('radio', { name: 'Email digest' }) as HTMLInputElement).checked)
      .toBe(true);
    expect(none).not.toBeChecked();
  });

  it('says nothing of devices when no group goes by push', async () => {
    serve([]);
    server.use(
      http.get(URL, () =>
        HttpResponse.json({
          proposals: 'digest',
          messages: 'none',
          barters: 'none',
          circles: 'digest',
          listing_alerts: 'none',
          listings: 'none',
          moderation: 'digest',
        }),
      ),
    );
    renderWithProviders(<NotificationChannelsSection />, { path: '/profile' });
    await screen.findByRole('group', { name: 'New messages' });
    expect(screen.queryByText(/No device gets push notifications/)).toBeNull();
  });
});
