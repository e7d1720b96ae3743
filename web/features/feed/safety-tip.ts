import { msg } from '@lingui/core/macro';
import { useEffect } from 'react';
import { SAFETY_TIP_DELAY_MS, SAFETY_TIP_DURATION_MS } from '#common/constants.ts';
import { toastWhenQuiet } from '../../components/ui/use-toast';
import { i18n } from '../../i18n/i18n';
import { useUser } from '../../lib/get-user';

export const SAFETY_TIP = {
  title: msg`Safety Tip`,
  description: msg`Always meet in public places and trust your instincts when bartering with others.`,
};

/** Local storage: the day (the device's calendar) the member last saw the tip (ADR 061). */
const STORAGE_PREFIX = 'barterhood:safety-tip-shown:';

/** The device's calendar day, "2026-11-28". */
function localDay(now: Date): string {
  const month = String(now.getMonth() + 1).padStart(2, '0');
  const day = String(now.getDate()).padStart(2, '0');
  return `${now.getFullYear()}-${month}-${day}`;
}

/** Has this member not yet seen the tip today, on this device? Without storage: yes. */
export function safetyTipDue(memberId: string, now = new Date()): boolean {
  try {
    return window.localStorage.getItem(`${STORAGE_PREFIX}${memberId}`) !== localDay(now);
  } catch {
    return true;
  }
}

function markSafetyTipShown(memberId: string, now = new Date()): void {
  try {
    window.localStorage.setItem(`${STORAGE_PREFIX}${memberId}`, localDay(now));
  } catch {
    // Storage unavailable (a private window's quota): the tip may show again on the next visit.
  }
}

/**
 * The safety tip (spec section 2): 3 s after the feed opens, shown for 5 s. At most once a day per
 * member on a device (issue 28, ADR 061); it waits while another toast or a dialog is on show and a
 * dialog opening closes it (toastWhenQuiet), so it never replaces a toast nor covers a dialog.
 */
export function useSafetyTip() {
  const { user } = useUser();
  const memberId = user?.id;
  useEffect(() => {
    if (memberId === undefined || !safetyTipDue(memberId)) return;
    let tip: { cancel: () => void } | null = null;
    const timer = window.setTimeout(() => {
      tip = toastWhenQuiet(
        { title: i18n._(SAFETY_TIP.title), description: i18n._(SAFETY_TIP.description) },
        SAFETY_TIP_DURATION_MS,
        { onShow: () => markSafetyTipShown(memberId) },
      );
    }, SAFETY_TIP_DELAY_MS);
    return () => {
      window.clearTimeout(timer);
      tip?.cancel();
    };
  }, [memberId]);
}
