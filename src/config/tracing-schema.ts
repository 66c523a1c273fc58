import { z } from 'zod';
import { optionalText } from './comma-list.js';

/** The `tracing` section, filled from the standard OTEL_* variables by config/default.yaml; off while no endpoint is set. */
export const tracingSchema = z.strictObject({
  exporter: optionalText.describe('`otlp` (the default when an endpoint is set) or `none` to turn traces off.'),
  endpoint: optionalText.describe('The OTLP/HTTP base URL; traces go to <endpoint>/v1/traces.'),
  tracesEndpoint: optionalText.describe('The full OTLP/HTTP traces URL, over `endpoint`.'),
  headers: optionalText.describe('`key=value,key2=value2` sent with every export (an API key is a secret: scrubbed from logs).'),
  serviceName: z.string().min(1).default('echo-agent').describe('The service.name of every span.'),
});

/** The `tracing` section as validated. */
export type TracingConfig = z.infer<typeof tracingSchema>;

/** Where traces go, or that they are off. */
export type TracingTarget =
  | { readonly enabled: false }
  | { readonly enabled: true; readonly url: string; readonly headers: Readonly<Record<string, string>>; readonly serviceName: string };

/** Derives the export target: off when `exporter` is `none` or no endpoint is set (nothing is loaded then). */
export function resolveTracingTarget(tracing: TracingConfig): TracingTarget {
  if (tracing.exporter === 'none') return { enabled: false };
  const url = tracing.tracesEndpoint ?? (tracing.endpoint === undefined ? undefined : `${tracing.endpoint.replace(/\/+$/, '')}/v1/traces`);
  if (url === undefined) return { enabled: false };
  return { enabled: true, url, headers: parseOtlpHeaders(tracing.headers ?? ''), serviceName: tracing.serviceName };
}

/** Parses the W3C-baggage-like header list of OTEL_EXPORTER_OTLP_HEADERS (`a=b,c=d`, values percent-encoded). */
export function parseOtlpHeaders(text: string): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  for (const pair of text.split(',')) {
    const separator = pair.indexOf('=');
    if (separator <= 0) continue;
    const name = pair.slice(0, separator).trim();
    const raw = pair.slice(separator + 1).trim();
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {
      // A stray % is kept as written.
    }
    if (name !== '') headers[name] = value;
  }
  return headers;
}
