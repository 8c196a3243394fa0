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
