/**
 * This package's diagnostic logger: OpenTelemetry's `diag` under the package's component name,
 * so every message says where it comes from (`OTEL_LOG_LEVEL=debug` shows what the
 * instrumentation decided). Nothing is printed unless a diag logger is installed.
 */
import { diag } from '@opentelemetry/api';
import { PACKAGE_NAME } from './version';

export const logger = diag.createComponentLogger({ namespace: PACKAGE_NAME });
