import { isSpanContextValid, trace, type Span, type SpanContext } from '@opentelemetry/api';

/**
 * The W3C `traceparent` header value of `span` (`00-<trace id>-<span id>-<flags>`), or undefined
 * for a span without a valid context (the no-op spans of a process without an SDK). Written here
 * rather than through the global propagator so a hook gets it whichever propagators are set.
 */
export function traceparentOf(span: Span | undefined): string | undefined {
  const spanContext = span?.spanContext();
  if (spanContext === undefined || !isSpanContextValid(spanContext)) return undefined;
  return `00-${spanContext.traceId}-${spanContext.spanId}-${(spanContext.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/** True when a global tracer provider is registered (an SDK started); without one, spans cost nothing because none are made. */
export function tracingRegistered(): boolean {
  const provider = trace.getTracerProvider() as { getDelegateTracer?: (name: string) => unknown };
  return (
    typeof provider.getDelegateTracer !== 'function' || provider.getDelegateTracer('hookloop') !== undefined
  );
}

/** The span context a W3C `traceparent` names (as traceparentOf writes it), or undefined when it is not one. */
export function spanContextOf(traceparent: string): SpanContext | undefined {
  const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(traceparent);
  if (match === null) return undefined;
  const spanContext = {
    traceId: match[1]!,
    spanId: match[2]!,
    traceFlags: Number.parseInt(match[3]!, 16),
    isRemote: false,
  };
  return isSpanContextValid(spanContext) ? spanContext : undefined;
}
