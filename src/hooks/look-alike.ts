/**
 * Makes a wrapper look like the function it wraps: the original's `length` and `name`
 * property descriptors are copied onto it (removed when the original has none). Used by the
 * fetch hook and the wire tap's method wrappers. Never throws.
 */
export function copyNameAndLength(original: object, wrapper: object): void {
  for (const key of ['length', 'name'] as const) {
    const d = Object.getOwnPropertyDescriptor(original, key);
    try {
      if (d) Object.defineProperty(wrapper, key, d);
      else delete (wrapper as Record<string, unknown>)[key];
    } catch {
      // keep ours
    }
  }
}
