import { asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pLimit from 'p-limit';
import { intArray } from '../../db/arrays';
import { queryRows } from '../../db/rows';
import { pushDeliveries, pushSubscriptions, webPushKeys } from '../../db/schema/web-push';
import { periodicJob } from '../../jobs/jobs-plugin';
import { mailLocale } from '../../mail/mail-i18n';
import { shownName } from '../member-refs';
import { findSwapDaysOfNotifications } from './notifications-repository';
import { type PushEntry, pushPayload } from './push-text';

/** The job that sends the pushes waiting in push_deliveries (one waiting, one running, anywhere). */
export const WEB_PUSH_QUEUE = 'web-push';
/**
 * The channel a transaction that queued pushes notifies on commit (every process listens): the
 * notifications table's trigger queues them, whatever wrote the entry (migration 0045).
 */
export const WEB_PUSH_CHANNEL = 'web_push';
/** The sweep that sends retries when they fall due (a queued push is sent at once, on NOTIFY). */
const WEB_PUSH_SWEEP_QUEUE = 'web-push-retries';

/** Deliveries claimed at a time, and sent side by side. */
const BATCH = 50;
const PARALLEL = 4;
/** A claimed delivery is tried again after this long if its process died before answering it. */
const CLAIM_SECONDS = 120;
/** Politely (ADR 087): 30 s, 1, 2, 4 ... minutes apart, at most an hour; dropped after 8 tries. */
const FIRST_RETRY_SECONDS = 30;
const LONGEST_RETRY_SECONDS = 3600;
export const PUSH_ATTEMPTS = 8;
/** How long a push service should keep a push for a device that is off (seconds). */
const TIME_TO_LIVE = 24 * 60 * 60;
/** The longest a push service may take to answer. */
const SEND_TIMEOUT_MS = 10_000;

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const keysOf = new WeakMap<object, Promise<VapidKeys>>();

/**
 * The site's VAPID pair: the operator's (WEB_PUSH_PUBLIC_KEY, WEB_PUSH_PRIVATE_KEY), else the one
 * kept in the database, made by the first process that asks (one row: every process on a
 * PostgreSQL database signs with the same pair, which the subscriptions were made with).
 */
export function vapidKeys(app: FastifyInstance): Promise<VapidKeys> {
  const configured = app.config.webPush.keys;
  if (configured) return Promise.resolve(configured);
  let keys = keysOf.get(app);
  if (!keys) {
    keys = (async () => {
      const { default: webpush } = await import('./web-push-library');
      const made = webpush.generateVAPIDKeys();
      await app.db
        .insert(webPushKeys)
        .values({ id: 1, publicKey: made.publicKey, privateKey: made.privateKey })
        .onConflictDoNothing();
      const [row] = await app.db
        .select({ publicKey: webPushKeys.publicKey, privateKey: webPushKeys.privateKey })
        .from(webPushKeys)
        .where(eq(webPushKeys.id, 1));
      if (!row) throw new Error('the VAPID key pair could not be stored');
      return row;
    })();
    keysOf.set(app, keys);
    // A failure (the database away) is tried again by the next caller.
    keys.catch(() => keysOf.delete(app));
  }
  return keys;
}

interface ClaimedRow {
  id: number;
  attempts: number;
  subscription_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  notification_id: number;
  kind: string;
  count: number;
  barter_request_id: number | null;
  circle_id: number | null;
  locale: string | null;
  actor_id: string | null;
  actor_display_name: string | null;
  actor_first_name: string | null;
  actor_last_name: string | null;
  item_id: number | null;
  matched: string | null;
  /** A stale listing's entry (ADR 088): the member's own item and its title. */
  own_item_id: number | null;
  own_item_title: string | null;
}

/** What a push service answered: sent, the device is gone, try later (when), or never. */
type Outcome =
  | { kind: 'sent' }
  | { kind: 'gone' }
  | { kind: 'retry'; afterSeconds: number | null }
  | { kind: 'drop'; status: number };

function retryAfterSeconds(header: string | null): number | null {
  if (!header) return null;
  const seconds = /^\d+$/.test(header.trim()) ? Number(header) : (Date.parse(header) - Date.now()) / 1000;
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, LONGEST_RETRY_SECONDS) : null;
}

/** Encrypt (RFC 8291, aes128gcm), sign (RFC 8292, VAPID) and POST one push. */
async function sendPush(
  app: FastifyInstance,
  keys: VapidKeys,
  row: ClaimedRow,
  payload: string,
): Promise<Outcome> {
  const { default: webpush } = await import('./web-push-library');
  const details = webpush.generateRequestDetails(
    { endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth } },
    payload,
    {
      vapidDetails: {
        subject: app.config.webPush.subject,
        publicKey: keys.publicKey,
        privateKey: keys.privateKey,
      },
      TTL: TIME_TO_LIVE,
      contentEncoding: 'aes128gcm',
      urgency: 'normal',
    },
  );
  let response: Response;
  try {
    response = await fetch(details.endpoint, {
      method: details.method,
      headers: details.headers as Record<string, string>,
      body: details.body ? new Uint8Array(details.body) : undefined,
      redirect: 'manual',
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    await response.body?.cancel();
  } catch (error) {
    app.log.info(
      { err: error, subscription: row.subscription_id },
      'push service unreachable; trying again later',
    );
    return { kind: 'retry', afterSeconds: null };
  }
  if (response.status >= 200 && response.status < 300) return { kind: 'sent' };
  if (response.status === 404 || response.status === 410) return { kind: 'gone' };
  if (response.status === 429 || response.status >= 500)
    return { kind: 'retry', afterSeconds: retryAfterSeconds(response.headers.get('retry-after')) };
  return { kind: 'drop', status: response.status };
}

/**
 * Send the pushes that are due, a batch at a time, until none is (the web-push job). Each batch is
 * claimed first (its due time moved on, so another process or a crash cannot send it twice
 * at once); then each push is sent and its row deleted, or its device removed when the push service
 * says it is gone (404, 410), or tried again later. How many were sent.
 */
export async function deliverDuePushes(app: FastifyInstance): Promise<number> {
  const keys = await vapidKeys(app);
  const limit = pLimit(PARALLEL);
  let sent = 0;
  for (;;) {
    const claimed = await queryRows<{ id: number }>(
      app.db,
      sql`UPDATE ${pushDeliveries} d
             SET attempts = d.attempts + 1, due_at = now() + make_interval(secs => ${CLAIM_SECONDS})
           WHERE d.id IN (
             SELECT id FROM ${pushDeliveries} WHERE due_at <= now()
              ORDER BY due_at, id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
          RETURNING d.id`,
    );
    if (claimed.length === 0) return sent;
    const rows = await queryRows<ClaimedRow>(
      app.db,
      sql`SELECT d.id, d.attempts, s.id AS subscription_id, s.endpoint, s.p256dh, s.auth,
                 n.id AS notification_id, n.kind, n.count, n.barter_request_id, n.circle_id,
                 u.locale, a.id AS actor_id, a.display_name AS actor_display_name,
                 a.first_name AS actor_first_name, a.last_name AS actor_last_name,
                 la.item_id, la.matched, n.item_id AS own_item_id, n.item_title AS own_item_title
            FROM ${pushDeliveries} d
            JOIN push_subscriptions s ON s.id = d.subscription_id
            JOIN notifications n ON n.id = d.notification_id
            JOIN users u ON u.id = n.user_id
            LEFT JOIN users a ON a.id = n.actor_id
            LEFT JOIN listing_alerts la ON la.notification_id = n.id
           WHERE d.id = ANY(${intArray(claimed.map((row) => row.id))}::int[])
           ORDER BY d.id`,
    );
    const days = await findSwapDaysOfNotifications(
      app.db,
      rows.map((row) => row.notification_id),
    );
    const outcomes = await Promise.all(
      rows.map((row) =>
        limit(async () => {
          const entry: PushEntry = {
            id: row.notification_id,
            kind: row.kind,
            count: Number(row.count),
            barterRequestId: row.barter_request_id,
            circleId: row.circle_id,
            swapDayId: days.get(row.notification_id)?.id ?? null,
            actorName: row.actor_id
              ? shownName({
                  displayName: row.actor_display_name,
                  firstName: row.actor_first_name,
                  lastName: row.actor_last_name,
                })
              : null,
            listing: row.item_id === null ? null : { itemId: row.item_id, matched: row.matched ?? '' },
            item: row.own_item_id === null ? null : { id: row.own_item_id, title: row.own_item_title ?? '' },
          };
          const payload = JSON.stringify(pushPayload(mailLocale(row.locale), entry));
          return { row, outcome: await sendPush(app, keys, row, payload) };
        }),
      ),
    );
    await settle(app, outcomes);
    sent += outcomes.filter(({ outcome }) => outcome.kind === 'sent').length;
  }
}

/** Write down what each push service answered, in a few statements. */
async function settle(app: FastifyInstance, outcomes: ReadonlyArray<{ row: ClaimedRow; outcome: Outcome }>) {
  const done = outcomes
    .filter(
      ({ row, outcome }) =>
        outcome.kind === 'sent' || outcome.kind === 'drop' || row.attempts >= PUSH_ATTEMPTS,
    )
    .map(({ row }) => row.id);
  const gone = [
    ...new Set(
      outcomes.filter(({ outcome }) => outcome.kind === 'gone').map(({ row }) => row.subscription_id),
    ),
  ];
  for (const { row, outcome } of outcomes) {
    if (outcome.kind === 'drop')
      app.log.warn({ status: outcome.status, subscription: row.subscription_id }, 'push refused');
    else if (outcome.kind === 'retry' && row.attempts >= PUSH_ATTEMPTS)
      app.log.warn({ subscription: row.subscription_id, attempts: row.attempts }, 'push given up');
  }
  if (done.length > 0)
    await app.db.execute(sql`DELETE FROM ${pushDeliveries} WHERE id = ANY(${intArray(done)}::int[])`);
  // The device unsubscribed or expired: its subscription goes, and its waiting pushes with it.
  if (gone.length > 0)
    await app.db.execute(sql`DELETE FROM ${pushSubscriptions} WHERE id = ANY(${intArray(gone)}::int[])`);
  const retries = outcomes.flatMap(({ row, outcome }) =>
    outcome.kind === 'retry' && row.attempts < PUSH_ATTEMPTS
      ? [
          {
            id: row.id,
            seconds:
              outcome.afterSeconds ??
              Math.min(FIRST_RETRY_SECONDS * 2 ** (row.attempts - 1), LONGEST_RETRY_SECONDS),
          },
        ]
      : [],
  );
  if (retries.length > 0)
    await app.db.execute(sql`
      UPDATE ${pushDeliveries} d SET due_at = now() + make_interval(secs => r.seconds)
        FROM unnest(${intArray(retries.map((retry) => retry.id))}::int[],
                    ${intArray(retries.map((retry) => Math.ceil(retry.seconds)))}::int[]) AS r(id, seconds)
       WHERE d.id = r.id`);
}

/**
 * Send pushes off the request path (ADR 087, through the job queue of ADR 066/072): every process
 * listens for the channel a notification's transaction notifies on commit and asks for a run of the
 * stately web-push queue, which one process at a time works; a run at start sends what waited
 * while no server ran, and a sweep every minute sends the retries that fell due.
 */
export function webPushPlugin(app: FastifyInstance): void {
  let unlisten: (() => Promise<void>) | null = null;
  let closing = false;
  const sendSoon = () => {
    app.jobs.send(WEB_PUSH_QUEUE, {}).catch((error: unknown) => {
      app.log.warn({ err: error }, 'could not ask for the waiting pushes to be sent; the next sweep will');
    });
  };
  const setUp = async () => {
    const { jobs } = app;
    await jobs.started();
    if (closing) return;
    await jobs.createQueue(WEB_PUSH_QUEUE, {
      policy: 'stately',
      retryLimit: 10,
      retryDelay: 5,
      retryBackoff: true,
      expireInSeconds: CLAIM_SECONDS,
    });
    await jobs.work(WEB_PUSH_QUEUE, { pollingIntervalSeconds: 2 }, async () => {
      const sent = await deliverDuePushes(app);
      if (sent > 0) app.log.debug({ sent }, 'pushes sent');
    });
    if (closing) return;
    unlisten = await app.database.listen(WEB_PUSH_CHANNEL, { onNotify: sendSoon, onReconnect: sendSoon });
    sendSoon();
  };
  app.addHook('onReady', async () => {
    void setUp().catch((error: unknown) => {
      if (!closing) app.log.error({ err: error }, 'the web push job could not be set up');
    });
  });
  periodicJob(app, {
    name: WEB_PUSH_SWEEP_QUEUE,
    seconds: 60,
    run: async () => {
      const [due] = await app.db
        .select({ id: pushDeliveries.id })
        .from(pushDeliveries)
        .where(sql`${pushDeliveries.dueAt} <= now()`)
        .orderBy(asc(pushDeliveries.dueAt))
        .limit(1);
      if (due) sendSoon();
    },
  });
  app.addHook('preClose', async () => {
    closing = true;
    await unlisten?.();
  });
}
