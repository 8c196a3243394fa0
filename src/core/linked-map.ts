/**
 * The ordered map both registries are bounded with (least recently put or used dropped first, in
 * O(1)), and the reading of their options, which the app hands in untyped.
 *
 * Pure: no timers, no I/O; every function total.
 */
import { intAtLeast } from './json-path';

/** An integer option of at least `min`, else the default. */
export function intOption(v: unknown, def: number, min: number): number {
  return intAtLeast(v, min) ?? def;
}

/** One property of an options object the app handed in, never throwing (a getter may). */
export function readOption(opts: unknown, name: string): unknown {
  try {
    return typeof opts === 'object' && opts !== null
      ? (opts as Record<string, unknown>)[name]
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A Map that keeps its own order in a doubly linked list: moving an entry to the newest
 * end and dropping the oldest are O(1). (Using a Map's insertion order as a queue, i.e.
 * delete + re-set and `keys().next()`, is O(size) per operation in V8 once deleted slots
 * pile up at the front.)
 */
export class LinkedMap<K, V> {
  private readonly map = new Map<K, LinkNode<K, V>>();
  private oldest: LinkNode<K, V> | undefined;
  private newest: LinkNode<K, V> | undefined;

  get size(): number {
    return this.map.size;
  }

  get(k: K): V | undefined {
    return this.map.get(k)?.v;
  }

  /** Sets the value and makes the entry the newest. */
  set(k: K, v: V): void {
    const node = this.map.get(k);
    if (node) {
      node.v = v;
      this.moveToNewest(node);
      return;
    }
    const created: LinkNode<K, V> = { k, v, older: this.newest, newer: undefined };
    if (this.newest) this.newest.newer = created;
    else this.oldest = created;
    this.newest = created;
    this.map.set(k, created);
  }

  /** Makes an existing entry the newest. */
  touch(k: K): void {
    const node = this.map.get(k);
    if (node) this.moveToNewest(node);
  }

  delete(k: K): boolean {
    const node = this.map.get(k);
    if (!node) return false;
    this.map.delete(k);
    this.unlink(node);
    return true;
  }

  oldestKey(): K | undefined {
    return this.oldest?.k;
  }

  newestKey(): K | undefined {
    return this.newest?.k;
  }

  /** Up to `max` keys, newest first. */
  keysNewestFirst(max: number): K[] {
    const out: K[] = [];
    for (let n = this.newest; n !== undefined && out.length < max; n = n.older) out.push(n.k);
    return out;
  }

  /**
   * The newest of the first `max` keys, newest first, that `test` accepts (undefined if none):
   * a bounded scan that stops at the first match without copying the keys out.
   */
  findNewestFirst(max: number, test: (k: K) => boolean): K | undefined {
    let seen = 0;
    for (let n = this.newest; n !== undefined && seen < max; n = n.older, seen++)
      if (test(n.k)) return n.k;
    return undefined;
  }

  clear(): void {
    this.map.clear();
    this.oldest = this.newest = undefined;
  }

  private moveToNewest(node: LinkNode<K, V>): void {
    if (this.newest === node) return;
    this.unlink(node);
    node.older = this.newest;
    node.newer = undefined;
    if (this.newest) this.newest.newer = node;
    else this.oldest = node;
    this.newest = node;
  }

  private unlink(node: LinkNode<K, V>): void {
    if (node.older) node.older.newer = node.newer;
    else this.oldest = node.newer;
    if (node.newer) node.newer.older = node.older;
    else this.newest = node.older;
    node.older = node.newer = undefined;
  }
}

interface LinkNode<K, V> {
  k: K;
  v: V;
  older: LinkNode<K, V> | undefined;
  newer: LinkNode<K, V> | undefined;
}
