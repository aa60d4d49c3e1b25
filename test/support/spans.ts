import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { expect } from 'vitest';

// Helpers for the span tests: an in-memory exporter behind `RunOptions.tracer`, and lookups in what it collected.

/** A tracer whose spans end up in `exporter.getFinishedSpans()`. */
export function collector() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, tracer: provider.getTracer('hookloop') };
}

/** The spans whose parent is `parent`. */
export function children(spans: readonly ReadableSpan[], parent: ReadableSpan): ReadableSpan[] {
  return spans.filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId);
}

/** The one span `predicate` picks; fails the test (naming what was found) when there are none or several. */
export function one(
  spans: readonly ReadableSpan[],
  predicate: (span: ReadableSpan) => boolean,
): ReadableSpan {
  const found = spans.filter(predicate);
  expect(found.map((span) => span.name)).toHaveLength(1);
  return found[0]!;
}
