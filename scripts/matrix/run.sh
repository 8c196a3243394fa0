#!/usr/bin/env bash
# Runtime / OpenTelemetry matrix: runs the test suite (`npm test`) and a smoke test of the
# `register` entry on other Node.js versions and on the OpenTelemetry JS 3.x line, each in a
# throw-away copy of the repo, and prints a summary table.
#
#   bash scripts/matrix/run.sh                        # rows "22 24 22-otel3"
#   MATRIX_ROWS="24-otel3" bash scripts/matrix/run.sh # choose rows
#
# Rows:  <major>        Node <major>, `npm ci` from package-lock.json (the OTel 2.x line)
#        <major>-otel3  Node <major>, package.json moved to the OTel 3.x line (see otel3-deps.cjs),
#                       `npm install` without the lockfile (3.x needs Node >= 22.15)
# Node binaries come from the npm registry: the package node-linux-<arch>@<major> (the one the
# `node` package installs) carries bin/node in its tarball; `npm pack` fetches it, nothing
# else is downloaded. npm itself is the machine's npm, run by the row's node.
#
# Environment:
#   MATRIX_ROWS   rows to run (default "22 24 22-otel3")
#   MATRIX_CACHE  cache and work dir (default /tmp/a2a-matrix): node/<version>/, work/<row>/, logs/
#   MATRIX_SRC    what to copy: unset = the working tree (tracked + untracked, not ignored);
#                 a git revision (e.g. HEAD) = that commit, via git archive
#   MATRIX_TEST_TIMEOUT  seconds allowed for one row's `npm test` (default 600)
#   MATRIX_PATCH  a patch (git diff, -p1) applied to every copy before installing, e.g. to try
#                 a change on every row before it is in the tree
#   OTEL3_API / OTEL3_STABLE / OTEL3_EXPERIMENTAL / OTEL3_UNDICI  ranges for the otel3 rows
# Exit status: 0 when every row's tests and smoke passed. The last line is the plain
# "matrix: N passed, N failed" over all rows' tests.
# The real checkout (its node_modules, lockfile, dist) is never touched.
set -uo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
CACHE="${MATRIX_CACHE:-/tmp/a2a-matrix}"
ROWS="${MATRIX_ROWS:-22 24 22-otel3}"
PATCH_FILE="${MATRIX_PATCH:-}"
SRC="${MATRIX_SRC:-}"
TEST_TIMEOUT="${MATRIX_TEST_TIMEOUT:-600}"
[ -n "$PATCH_FILE" ] && PATCH_FILE="$(cd "$(dirname "$PATCH_FILE")" && pwd)/$(basename "$PATCH_FILE")"
mkdir -p "$CACHE/node" "$CACHE/work" "$CACHE/logs"

SYS_NODE="$(command -v node)"
ARCH="$("$SYS_NODE" -p process.arch)"
NODE_PKG="node-linux-$ARCH"
SYS_NPM_CLI="$(readlink -f "$(command -v npm)")"

log() { printf '[matrix %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", b - a }'; }

# fetch_node MAJOR (scripts/matrix/fetch-node.sh, shared with the benchmarks)
# shellcheck source=fetch-node.sh
. "$HERE/fetch-node.sh"

# copy_repo DEST: tracked + untracked-not-ignored files as in the working tree now, or the
# commit MATRIX_SRC names.
copy_repo() {
  local dest="$1"
  rm -rf "$dest" && mkdir -p "$dest"
  if [ -n "$SRC" ]; then
    git -C "$REPO" archive --format=tar "$SRC" | tar -xf - -C "$dest"
  else
    (cd "$REPO" && git ls-files -co --exclude-standard -z | tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -xf - -C "$dest"
  fi
}

# count KIND LOG: the node test runner's closing counts (tap "# pass N" or spec "ℹ pass N").
count() { grep -aE "^(# |ℹ )$1 [0-9]+\$" "$2" | tail -1 | grep -oE '[0-9]+$'; }

declare -a SUMMARY=()
TOTAL_PASS=0; TOTAL_FAIL=0; BAD=0
T_ALL=$(now)

for row in $ROWS; do
  major="${row%%-*}"; kind="lock"
  case "$row" in
    *-otel3) kind="otel3" ;;
    *[!0-9]*) log "unknown row '$row' (want <major> or <major>-otel3)"; SUMMARY+=("$row|-|-|bad row name|-|-|-|-"); BAD=1; continue ;;
  esac
  t0=$(now)
  rowlog="$CACHE/logs/$row.log"; : >"$rowlog"
  if ! bin="$(fetch_node "$major")"; then
    SUMMARY+=("$row|?|-|no node binary|-|-|-|-"); BAD=1; continue
  fi
  nodev="$("$bin/node" --version)"
  work="$CACHE/work/$row"
  log "$row: node $nodev, copy of ${SRC:-the working tree} in $work, log $rowlog"
  copy_repo "$work"
  status="ok"
  if [ -n "$PATCH_FILE" ]; then
    (cd "$work" && patch -p1 --forward <"$PATCH_FILE") >>"$rowlog" 2>&1 || status="patch failed"
  fi
  export_path="$bin:$PATH"

  t1=$(now)
  if [ "$status" = ok ]; then
    if [ "$kind" = otel3 ]; then
      (cd "$work" && rm -f package-lock.json && PATH="$export_path" node "$HERE/otel3-deps.cjs" \
        && PATH="$export_path" node "$SYS_NPM_CLI" install --no-audit --no-fund) >>"$rowlog" 2>&1 || status="install failed"
    else
      (cd "$work" && PATH="$export_path" node "$SYS_NPM_CLI" ci --no-audit --no-fund) >>"$rowlog" 2>&1 || status="install failed"
    fi
  fi
  otel="$(cd "$work" && PATH="$export_path" node "$HERE/otel-line.cjs" 2>/dev/null || echo '?')"
  t2=$(now)

  pass=""; fail=""
  if [ "$status" = ok ]; then
    log "$row: npm test ($otel)"
    echo "===== npm test =====" >>"$rowlog"
    (cd "$work" && PATH="$export_path" timeout -k 15 "$TEST_TIMEOUT" node "$SYS_NPM_CLI" test) >>"$rowlog" 2>&1
    rc=$?
    pass="$(count pass "$rowlog")"; fail="$(count fail "$rowlog")"
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
      status="timed out after ${TEST_TIMEOUT} s"
    elif [ -z "$pass" ]; then
      status="build/run failed"
    elif [ "$rc" -ne 0 ] || [ "${fail:-0}" -ne 0 ]; then
      status="tests failed"
    fi
  fi
  t3=$(now)

  smoke="-"
  if [ -f "$work/dist/cjs/register.js" ]; then
    echo "===== register smoke =====" >>"$rowlog"
    if (cd "$work" && PATH="$export_path" node "$HERE/register-smoke.cjs" dist/cjs/register.js) >>"$rowlog" 2>&1; then smoke="ok"; else smoke="FAILED"; fi
  fi
  t4=$(now)

  [ "$status" = ok ] && [ "$smoke" = ok ] || BAD=1
  TOTAL_PASS=$((TOTAL_PASS + ${pass:-0})); TOTAL_FAIL=$((TOTAL_FAIL + ${fail:-0}))
  if [ "$status" != ok ]; then
    # Show why: the first TypeScript errors / failing tests of this row.
    { grep -aE 'error TS[0-9]+|^not ok|^ *not ok|✖|ERR!|npm error' "$rowlog" | head -15; } | sed "s/^/[$row] /" >&2
  fi
  SUMMARY+=("$row|$nodev|$otel|${pass:--} pass / ${fail:--} fail ($status)|$smoke|$(secs "$t1" "$t2") s|$(secs "$t2" "$t3") s|$(secs "$t0" "$t4") s")
done

echo
echo "| row | node version | otel line | tests pass/fail | register smoke | install | npm test | row total |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
for s in "${SUMMARY[@]}"; do echo "| ${s//|/ | } |"; done
echo
echo "matrix total: $(secs "$T_ALL" "$(now)") s; logs in $CACHE/logs"
echo "matrix: $TOTAL_PASS passed, $TOTAL_FAIL failed"
exit "$BAD"
