/**
 * The conformance suite of the live implementations: every check of conformance/checks.ts against
 * every row of conformance/implementations.ts that declares what the check needs; N/A (skipped,
 * with the row's reason) elsewhere. A row whose agent cannot start is not run, with the reason:
 * its first test fails unless the row is `optional` (then it is skipped with why).
 *
 *   REAL_WORLD_INSTALL_ONLY=1 bash scripts/real-world.sh     # once: venvs, packages, Go build
 *   npm run build && node --import tsx --test test/real-world/conformance.test.ts
 *   REAL_WORLD_ROWS=python-strands node --import tsx --test test/real-world/conformance.test.ts
 */
import { after, describe, test } from 'node:test';
import { liveHarness } from './live-checks';
import { CHECKS, RowContext, type Check } from './conformance/checks';
import { ROWS } from './conformance/implementations';
import { record, type Status } from './conformance/results';

const h = liveHarness();
const chosen = process.env.REAL_WORLD_ROWS?.split(',').map((s) => s.trim());

for (const row of ROWS) {
  if (chosen && !chosen.includes(row.id)) continue;
  describe(row.id, () => {
    const ctx = new RowContext(row, h);
    after(async () => {
      await ctx.stopAll();
    });

    test('the agent starts', async (t) => {
      const why =
        row.unavailable() ??
        (await ctx.healthy().then(
          () => undefined,
          (e: Error) => `the agent did not start: ${e.message}`,
        ));
      if (why === undefined) {
        record({ row: row.id, check: 'starts', status: 'pass' });
        return;
      }
      ctx.notRun = why;
      record({ row: row.id, check: 'starts', status: 'not run', reason: why });
      if (row.optional) t.skip(`not run (optional: ${row.optional}): ${why}`);
      else throw new Error(`not run: ${why}`);
    });

    const runCheck = (check: Check): void => {
      const na = check.applies(row);
      if (na !== true) {
        record({ row: row.id, check: check.id, status: 'n/a', reason: na });
        test(check.title, { skip: `N/A: ${na}` }, () => {});
        return;
      }
      test(check.title, async (t) => {
        if (ctx.notRun) {
          record({ row: row.id, check: check.id, status: 'not run', reason: ctx.notRun });
          t.skip(`not run: ${ctx.notRun}`);
          return;
        }
        await recorded(row.id, check.id, () => check.run(ctx));
      });
    };
    for (const check of CHECKS) if (!check.last) runCheck(check);
    for (const q of row.quirks ?? []) {
      runCheck({
        id: `quirk: ${q.title}`,
        title: `quirk: ${q.title}`,
        asserts: q.why,
        applies: () => true,
        run: q.run,
      });
    }
    for (const check of CHECKS) if (check.last) runCheck(check);
  });
}

async function recorded(row: string, check: string, run: () => Promise<void>): Promise<void> {
  let status: Status = 'fail';
  let reason: string | undefined;
  try {
    await run();
    status = 'pass';
  } catch (e) {
    reason = (e as Error).message.split('\n')[0];
    throw e;
  } finally {
    record({ row, check, status, reason });
  }
}
