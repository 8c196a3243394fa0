/**
 * A bounded memo for pure functions of a string: the core's answers about URLs, paths and
 * media types repeat over and over (agents talk to the same few peers), and computing them
 * costs microseconds per request. Forgets everything when full, so memory stays bounded
 * and an answer is never different from the computed one.
 */
export function boundedMemo<V>(
  compute: (key: string) => V,
  maxEntries: number,
  maxKeyLength = Infinity,
): (key: string) => V {
  const cache = new Map<string, V>();
  return (key: string): V => {
    const hit = cache.get(key);
    if (hit !== undefined || cache.has(key)) return hit as V;
    const value = compute(key);
    // Long keys (query strings with ids, say) are computed, not remembered: they rarely repeat.
    if (key.length <= maxKeyLength) {
      if (cache.size >= maxEntries) cache.clear();
      cache.set(key, value);
    }
    return value;
  };
}
