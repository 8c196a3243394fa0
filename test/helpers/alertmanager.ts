import http from 'node:http';
import type net from 'node:net';

/**
 * An Alertmanager webhook notification (payload version 4) as Alertmanager POSTs it to the
 * fleet receiver: the envelope around `alerts`, in Alertmanager's field order. The fields the
 * receiver reads from the envelope (status, group key and labels) can be set; the rest are
 * what an `a2a-fleet` receiver of a stock Alertmanager sends.
 */
export function alertmanagerNotification(
  alerts: unknown[],
  envelope: { status?: string; groupKey?: string; groupLabels?: Record<string, string> } = {},
): Record<string, unknown> {
  return {
    version: '4',
    groupKey: envelope.groupKey ?? '{}:{a2a_agent_card_url="x"}',
    truncatedAlerts: 0,
    status: envelope.status ?? 'firing',
    receiver: 'a2a-fleet',
    groupLabels: envelope.groupLabels ?? {},
    commonLabels: {},
    commonAnnotations: {},
    externalURL: 'http://alertmanager:9093',
    alerts,
  };
}

/** One notification the plain receiver got: when, its Authorization header, its JSON body. */
export interface Notification {
  t: number;
  authorization: string | undefined;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/**
 * A plain webhook receiver on 127.0.0.1 (port 0) that records what Alertmanager sends to
 * `url`, independent of the instrumentation (an unparsable body is kept as `unparsable`).
 */
export function startPlainReceiver(): Promise<{
  url: string;
  notifications: Notification[];
  close(): Promise<void>;
}> {
  const notifications: Notification[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = { unparsable: Buffer.concat(chunks).toString('utf8') };
      }
      notifications.push({ t: Date.now(), authorization: req.headers.authorization, body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      resolve({
        url: `http://127.0.0.1:${port}/plain`,
        notifications,
        close: () => new Promise<void>((r) => server.close(() => r())),
      });
    });
  });
}
