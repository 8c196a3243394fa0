/**
 * The package's diagnostic logger: `diag` with the package name in front of each message
 * (what OTel instrumentations do), so the user sees where a warning comes from.
 */
import { diag } from '@opentelemetry/api';
import { PACKAGE_NAME } from './version';

export const logger = diag.createComponentLogger({ namespace: PACKAGE_NAME });
