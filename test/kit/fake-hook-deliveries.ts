import { createHmac, randomUUID } from 'node:crypto';

/** One delivery of the App's webhook, as `GET /app/hook/deliveries` lists it (plus what was sent). */
export interface FakeDelivery {
  id: number;
  guid: string;
  event: string;
  action: string | null;
  status_code: number;
  status: string;
  delivered_at: string;
  redelivery: boolean;
  payload: unknown;
}

export interface HookDeliveries {
  deliveries: FakeDelivery[];
  /** Records a delivery GitHub already tried (default: failed with 502, the bot being down). */
  add(o: { event: string; payload: unknown; guid?: string; statusCode?: number }): FakeDelivery;
  /** Where redeliveries go; redeliveries asked for before this is set are sent once it is. */
  setWebhook(url: string, secret: string): void;
  /** The list route's body: newest first, without payloads. */
  list(): Omit<FakeDelivery, 'payload'>[];
  /** `POST …/attempts`: false for an unknown id; else the payload is sent again, signed. */
  redeliver(id: number): boolean;
}

/**
 * The fake GitHub's App webhook deliveries (issue 8): a log of deliveries and redelivery on
 * request, which POSTs the stored payload to the configured webhook with a valid
 * `X-Hub-Signature-256` and the same `X-GitHub-Delivery` GUID, and logs the attempt.
 */
export function createHookDeliveries(): HookDeliveries {
  let nextId = 1;
  const deliveries: FakeDelivery[] = [];
  const waiting: FakeDelivery[] = [];
  let target: { url: string; secret: string } | undefined;
  const record = (d: Omit<FakeDelivery, 'id' | 'delivered_at' | 'status'>) => {
    const full = {
      ...d,
      id: nextId++,
      delivered_at: new Date().toISOString(),
      status: d.status_code < 300 ? 'OK' : 'Invalid HTTP Response',
    };
    deliveries.push(full);
    return full;
  };
  const send = async (d: FakeDelivery, to: { url: string; secret: string }) => {
    const body = JSON.stringify(d.payload);
    const signature = `sha256=${createHmac('sha256', to.secret).update(body).digest('hex')}`;
    const url = new URL('/webhooks/github', to.url);
    const status = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': d.event,
        'x-github-delivery': d.guid,
        'x-hub-signature-256': signature,
      },
      body,
    }).then(
      (r) => r.status,
      () => 0,
    );
    record({
      guid: d.guid,
      event: d.event,
      action: d.action,
      status_code: status,
      redelivery: true,
      payload: d.payload,
    });
  };
  return {
    deliveries,
    add: (o) =>
      record({
        guid: o.guid ?? randomUUID(),
        event: o.event,
        action: (o.payload as { action?: string }).action ?? null,
        status_code: o.statusCode ?? 502,
        redelivery: false,
        payload: o.payload,
      }),
    setWebhook(url, secret) {
      target = { url, secret };
      for (const d of waiting.splice(0)) void send(d, target);
    },
    list: () => [...deliveries].reverse().map(({ payload: _p, ...d }) => d),
    redeliver(id) {
      const d = deliveries.find((x) => x.id === id);
      if (!d) return false;
      if (target) void send(d, target);
      else waiting.push(d);
      return true;
    },
  };
}
