/**
 * What decoding a result learns besides the result: the candidate versions (rows of the table,
 * versions.ts), narrowed by the rows that list each shape seen, and the problems met. Every
 * decoder of results.ts, result-payload.ts and result-parts.ts writes into one.
 */
import type { Binding, DecodedResult } from '../model';
import {
  VERSION_TABLE,
  familyOfBits,
  versionOfBits,
  type ResultShape,
  type VersionTable,
} from './versions';

const MAX_PROBLEMS = 6;

/** What a decode learnt besides the result: the versions its shapes allow, and its problems. */
export class DecodeEvidence {
  /** Candidate versions still possible (a bit per row of the table); meaningful only when `seen`. */
  versions: number;
  seen = false;
  problems: string[] | undefined = undefined;
  constructor(
    readonly binding: Binding | undefined,
    readonly table: VersionTable = VERSION_TABLE,
  ) {
    this.versions = table.allBits;
  }
  /** A shape seen: only the versions whose row lists it remain. */
  hint(shape: ResultShape): void {
    this.seen = true;
    this.versions &= this.table.shapeBits.get(shape) ?? 0;
  }
  problem(p: string): void {
    if (this.problems === undefined) this.problems = [p];
    else if (this.problems.length < MAX_PROBLEMS && !this.problems.includes(p))
      this.problems.push(p);
  }
  version(): string | undefined {
    return this.seen ? versionOfBits(this.table, this.versions) : undefined;
  }
  /**
   * Wrapper objects / TASK_STATE_ strings: 1.0 on JSON-RPC (0.3 JSON-RPC used `kind`), 0.3 or 1.0
   * on REST.
   */
  protoJsonHint(): void {
    this.hint(this.binding === 'jsonrpc' ? 'proto-json-jsonrpc' : 'proto-json-rest');
  }
  finish(r: DecodedResult): DecodedResult {
    const v = this.version();
    if (v !== undefined) r.protocolVersion = v;
    else if (this.seen) {
      const family = familyOfBits(this.table, this.versions);
      if (family !== undefined) r.versionFamily = family;
    }
    if (this.problems !== undefined) r.problem = this.problems.join('; ');
    return r;
  }
}

export function stateHint(raw: unknown, ctx: DecodeEvidence): void {
  if (typeof raw !== 'string') return;
  const c = raw.charCodeAt(0);
  if (c >= 97 && c <= 122) {
    // lowercase 0.x spelling; rejected / auth-required appeared in 0.2
    ctx.hint(
      raw === 'rejected' || raw === 'auth-required' ? 'lowercase-states-0.2' : 'lowercase-states',
    );
  } else if (raw === 'TASK_STATE_CANCELLED') {
    ctx.hint('state-cancelled'); // 0.3 proto spelling
  } else if (raw === 'TASK_STATE_CANCELED') {
    ctx.hint('state-canceled');
  } else if (raw.startsWith('TASK_STATE_')) {
    ctx.protoJsonHint();
  }
}
