import { msg } from '@lingui/core/macro';
import { formatDate } from '#web/i18n/format.ts';
import { i18n } from '#web/i18n/i18n.ts';

/** A date as the Account tab writes it ("Nov 28, 2026"). */
export const day = (value: string) => formatDate(value, { dateStyle: 'medium' });

const UNNAMED_DEVICE = { browser: msg`A browser`, system: msg`another system` };

/**
 * The server names a device in English ("Firefox on Windows", server/plugins/session.ts), for the
 * sessions and the push devices alike: the same words in the active language (browser and system
 * names stay as they are).
 */
export function deviceName(device: string): string {
  const parts = /^(.+) on (.+)$/.exec(device);
  if (!parts) return device;
  const browser = parts[1] === 'A browser' ? i18n._(UNNAMED_DEVICE.browser) : (parts[1] ?? '');
  const system = parts[2] === 'another system' ? i18n._(UNNAMED_DEVICE.system) : (parts[2] ?? '');
  return i18n._(msg`${browser} on ${system}`);
}
