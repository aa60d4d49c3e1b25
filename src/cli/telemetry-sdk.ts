/** What stops the SDK: flushes the spans still buffered, then closes the exporter. Never rejects. */
export interface TelemetryHandle {
  shutdown(): Promise<void>;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * True when the standard OpenTelemetry variables ask for traces over OTLP: `OTEL_TRACES_EXPORTER`
 * names `otlp`, or (when it is unset) `OTEL_EXPORTER_OTLP_ENDPOINT` or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is set. `OTEL_SDK_DISABLED=true` and
 * `OTEL_TRACES_EXPORTER=none` turn it off.
 */
export function tracesRequested(env: Env): boolean {
  if (env['OTEL_SDK_DISABLED']?.trim().toLowerCase() === 'true') return false;
  const exporters = env['OTEL_TRACES_EXPORTER'];
  if (exporters !== undefined && exporters.trim() !== '')
    return exporters.split(',').some((name) => name.trim() === 'otlp');
  return Boolean(
    env['OTEL_EXPORTER_OTLP_ENDPOINT']?.trim() || env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']?.trim(),
  );
}

/**
 * Starts the OpenTelemetry Node tracer with the OTLP/HTTP exporter when `tracesRequested(env)`,
 * and registers it globally (the run's spans then go there). The SDK is loaded with dynamic
 * imports only then: a run without OTEL_* variables loads none of it. The exporter reads the
 * usual `OTEL_EXPORTER_OTLP_*` variables (endpoint, headers, timeout); `service.name` defaults to
 * `hookloop` and `service.version` to `version` (`OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES` override it). A failure to start
 * is one warning, and the run goes on untraced.
 */
export async function startTelemetry(
  env: Env,
  version: string,
  warn: (text: string) => void,
): Promise<TelemetryHandle | undefined> {
  if (!tracesRequested(env)) return undefined;
  try {
    const [{ NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, resources] = await Promise.all([
      import('@opentelemetry/sdk-trace-node'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
    ]);
    const resource = resources
      .defaultResource()
      .merge(resources.resourceFromAttributes({ 'service.name': 'hookloop', 'service.version': version }))
      .merge(resources.detectResources({ detectors: [resources.envDetector] }));
    const provider = new NodeTracerProvider({
      resource,
      spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
    });
    provider.register();
    return {
      shutdown: () =>
        provider.shutdown().catch((error: unknown) => {
          warn(
            `OpenTelemetry: could not send the last spans: ${error instanceof Error ? error.message : String(error)}`,
          );
        }),
    };
  } catch (error) {
    warn(`OpenTelemetry: tracing is off: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}
