/** How a request to a hook ended, as /metrics counts it (`echo_hook_deliveries_total{hook,outcome}`). */
export type HookOutcome = 'accepted' | 'duplicate' | 'not-matched' | 'unverified' | 'bad-request' | 'unavailable';
