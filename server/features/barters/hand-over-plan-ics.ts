import ical, { ICalCalendarMethod } from 'ical-generator';
import type { PlanForCalendar } from './hand-over-plans';

// "Add to calendar" (issue 30, ADR 077): an agreed hand-over plan as an iCalendar file (RFC 5545),
// written by ical-generator, which escapes text values and folds lines at 75 octets; the test reads
// the file back with another library (ical.js).

/** The calendar file of an agreed plan; `publicUrl` names the app (UID host and the barter's link). */
export function handOverPlanIcs(input: PlanForCalendar, publicUrl: string, now = new Date()): string {
  const { plan, otherFirstName } = input;
  const host = new URL(publicUrl).hostname || 'barterhood';
  const link = `${publicUrl.replace(/\/$/, '')}/barters/${input.id}`;
  const items = [...input.give, ...input.get];
  const description = [
    input.give.length > 0 ? `You give: ${input.give.join(', ')}` : null,
    input.get.length > 0 ? `You get: ${input.get.join(', ')}` : null,
    `Place: ${plan.placeName}`,
    link,
  ]
    .filter((line): line is string => line !== null)
    .join('\n');
  const calendar = ical({
    prodId: { company: 'Barterhood', product: 'Hand-over plan', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
  });
  calendar.createEvent({
    id: `hand-over-${input.id}@${host}`,
    // A changed plan replaces the one a calendar already holds (same UID, higher SEQUENCE).
    sequence: plan.version,
    stamp: now,
    start: plan.startsAt,
    end: plan.endsAt,
    summary: `Hand-over with ${otherFirstName}: ${items.join(', ')}`,
    location: plan.placeName,
    description,
    url: link,
  });
  // RFC 5545 ends every content line with CRLF, the last one too; the library leaves the last bare.
  const text = calendar.toString();
  return text.endsWith('\r\n') ? text : `${text}\r\n`;
}
