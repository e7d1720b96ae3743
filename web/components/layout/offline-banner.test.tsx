import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setOnline } from '../../testing/network';
import { renderWithProviders } from '../../testing/render';
import { OfflineBanner } from './offline-banner';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the offline banner (ADR 034)', () => {
  it('says the app is offline in a status region, and goes away when the network is back', () => {
    renderWithProviders(<OfflineBanner />);
    const status = screen.getByRole('status');
    expect(status).toBeEmptyDOMElement();

    setOnline(false);
    expect(status).toHaveTextContent(
      'You are offline. You are seeing what was last loaded, and changes cannot be sent until you are back online.',
    );

    setOnline(true);
    expect(status).toBeEmptyDOMElement();
  });

  it('starts offline when the page opens without a network', () => {
    vi.spyOn(window.navigator, 'onLine', 'get').mockReturnValue(false);
    renderWithProviders(<OfflineBanner />);
    expect(screen.getByRole('status')).toHaveTextContent(/^You are offline\./);
  });
});
