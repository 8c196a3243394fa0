// Public exports: the telemetry contract's list.
export {};
