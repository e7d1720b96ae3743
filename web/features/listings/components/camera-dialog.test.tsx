import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '#web/testing/render.tsx';
import { CameraDialog } from './camera-dialog';

const ALERT = 'Unable to access camera. Please check permissions.';

afterEach(() => {
  vi.restoreAllMocks();
  Reflect.deleteProperty(navigator, 'mediaDevices');
});

function cameraRefusing(name: string) {
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: { getUserMedia: vi.fn(async () => Promise.reject(new DOMException('refused', name))) },
  });
}

function open() {
  const onOpenChange = vi.fn();
  const onChooseFile = vi.fn();
  renderWithProviders(
    <CameraDialog open onOpenChange={onOpenChange} onCapture={() => {}} onChooseFile={onChooseFile} />,
  );
  return { onOpenChange, onChooseFile };
}

describe('CameraDialog without a camera (issue 28)', () => {
  for (const [why, name] of [
    ['permission refused', 'NotAllowedError'],
    ['no camera on the device', 'NotFoundError'],
  ] as const) {
    it(`${why}: says the spec's alert and offers Choose File`, async () => {
      vi.spyOn(console, 'warn').mockImplementation(() => {});
      cameraRefusing(name);
      const alertBox = vi.spyOn(window, 'alert').mockImplementation(() => {});
      const { onOpenChange, onChooseFile } = open();
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent(ALERT);
      // Said in the page, not in a box the browser may suppress.
      expect(alertBox).not.toHaveBeenCalled();
      expect(screen.queryByRole('button', { name: 'Capture' })).not.toBeInTheDocument();
      await userEvent.click(screen.getByRole('button', { name: 'Choose File' }));
      expect(onChooseFile).toHaveBeenCalledOnce();
      expect(onOpenChange).toHaveBeenCalledWith(false);
    });
  }

  it('a browser without the camera API (a page not on HTTPS) says the same', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    Reflect.deleteProperty(navigator, 'mediaDevices');
    open();
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(ALERT));
    expect(screen.getByRole('button', { name: 'Choose File' })).toBeInTheDocument();
  });
});
