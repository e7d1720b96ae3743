/**
 * The event stream's names, without zod (ADR 046): the browser's live layer needs them on every member
 * page; the shape of each event's data is in `schemas/events.ts`.
 */

/** Path of the event stream (GET, server-sent events). */
export const EVENTS_PATH = '/api/events';

/** Every event type the stream sends (the SSE event names). */
export const MEMBER_EVENT_TYPES = [
  'counts',
  'notification',
  'message',
  'barter',
  'circle',
  'swapDay',
  'resync',
] as const;

export type MemberEventType = (typeof MEMBER_EVENT_TYPES)[number];
