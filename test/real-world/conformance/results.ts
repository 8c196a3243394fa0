/**
 * The matrix of one run: implementation × check, pass / fail / N/A / not run, with the reason.
 * conformance.test.ts appends one JSON line per cell to the file named by REAL_WORLD_MATRIX
 * (scripts/real-world.sh sets it); report.ts prints the matrix from it after the run.
 */
import { appendFileSync } from 'node:fs';

export type Status = 'pass' | 'fail' | 'n/a' | 'not run';
export interface Cell {
  row: string;
  check: string;
  status: Status;
  reason?: string;
}

export function record(cell: Cell): void {
  const file = process.env.REAL_WORLD_MATRIX;
  if (file) appendFileSync(file, JSON.stringify(cell) + '\n');
}
