#!/usr/bin/env bash
# The real-implementation suite: third-party A2A peers and clients installed from
# npm at exact versions, each in its own package under test/real-world/<name>/ (so their
# hundreds of MB never reach this package's install), driven by deterministic mock language
# models; the instrumented client side runs on this machine's Node (20).
#
#   bash scripts/real-world.sh            # install what is missing, then run the suite
#   REAL_WORLD_SKIP_INSTALL=1 bash ...    # run only
#   REAL_WORLD_INSTALL_ONLY=1 bash ...    # install only (CI: before type-checking the tests)
#
# Mastra needs Node >= 22.13: its peer runs on the Node 22 the runtime matrix fetches
# (test/real-world/mastra/node22.sh), installed with that Node's engine checks.
#
# Python peers: one virtual environment per implementation,
# test/real-world/python/<impl>/.venv, created by `python3 -m venv` and filled from that
# folder's hashed lock (`pip install --require-hashes -r requirements.lock`); skipped while the
# venv's stamp (.venv/.installed) is there. REAL_WORLD_PYTHON picks the interpreter.
# Go peers: test/real-world/go/<impl>/ (go.mod + go.sum), built by scripts/real-world-go.sh.
# Both are cached by lock hash in ${A2A_TEST_CACHE:-~/.cache/a2a-instrumentation-tests}
# (<impl>-<hash>/; .venv and .bin link there), so a second run on the same machine skips them.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
PACKAGES=(clients voltagent mastra adk)
PYTHON_IMPLS=(a2a-sdk google-adk fasta2a strands agent-framework python-a2a langgraph agno crewai)
PYTHON="${REAL_WORLD_PYTHON:-python3}"
# Go peers: test/real-world/go/<impl>/, built by scripts/real-world-go.sh
GO_IMPLS=(a2a-go)
# Python venvs and Go builds, keyed by lock hash (reused across runs and checkouts)
CACHE="${A2A_TEST_CACHE:-$HOME/.cache/a2a-instrumentation-tests}"

install_pkg() {
  local name="$1" dir="test/real-world/$1"
  [ -f "$dir/package.json" ] || return 0
  if [ -d "$dir/node_modules" ] && [ "$dir/node_modules/.package-lock.json" -nt "$dir/package-lock.json" ]; then return 0; fi
  local start; start=$(date +%s)
  if [ -f "$dir/node22.sh" ]; then
    local node22; node22="$(bash "$dir/node22.sh")"
    # the machine's npm, run by Node 22 (engines checks see Node 22)
    (cd "$dir" && PATH="$(dirname "$node22"):$PATH" "$node22" "$(readlink -f "$(command -v npm)")" ci --no-audit --no-fund --loglevel=error)
  else
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  fi
  echo "[real-world] installed $name in $(( $(date +%s) - start )) s ($(du -sh "$dir/node_modules" | cut -f1))"
}

install_python() {
  local name="$1" dir="test/real-world/python/$1"
  [ -f "$dir/requirements.lock" ] || return 0
  # cached by lock hash: the venv lives in $CACHE/python-<impl>-<hash of the lock and
  # the interpreter>, .venv links to it; a second run, or another checkout, reuses it
  local hash venv
  hash=$( (cat "$dir/requirements.lock"; if [ -f "$dir/pip-args" ]; then cat "$dir/pip-args"; fi; "$PYTHON" -c 'import sys; print(sys.version)') | sha256sum | cut -c1-16)
  venv="$CACHE/python-$name-$hash"
  if [ ! -f "$venv/.installed" ]; then
    local start; start=$(date +%s)
    rm -rf "$venv"
    "$PYTHON" -m venv "$venv"
    # <impl>/pip-args: extra pip options of that impl, one line (e.g. the one sdist it allows)
    local extra=()
    [ -f "$dir/pip-args" ] && read -ra extra < "$dir/pip-args"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
      --require-hashes --no-deps --only-binary=:all: "${extra[@]}" -r "$dir/requirements.lock"
    touch "$venv/.installed"
    echo "[real-world] installed python/$name in $(( $(date +%s) - start )) s ($(du -sh "$venv" | cut -f1), $venv)"
  fi
  [ -L "$dir/.venv" ] || rm -rf "$dir/.venv"
  ln -sfn "$venv" "$dir/.venv"
}

if [ -z "${REAL_WORLD_SKIP_INSTALL:-}" ]; then
  for p in "${PACKAGES[@]}"; do install_pkg "$p"; done
  for p in "${PYTHON_IMPLS[@]}"; do install_python "$p"; done
  if command -v go >/dev/null 2>&1; then
    for p in "${GO_IMPLS[@]}"; do bash scripts/real-world-go.sh "$p"; done
  fi
fi
[ -n "${REAL_WORLD_INSTALL_ONLY:-}" ] && exit 0
[ -d dist ] || npm run build
files=()
for p in "${PACKAGES[@]}"; do [ -f "test/real-world/$p.test.ts" ] && [ -f "test/real-world/$p/package.json" ] && files+=("test/real-world/$p.test.ts"); done
# bad input from a live Python server: a Starlette app run with the FastA2A venv
[ -f test/real-world/python/fasta2a/.venv/.installed ] && files+=(test/real-world/python-bad-input.test.ts)
# The conformance table (test/real-world/conformance/): every row runs, or is reported as not run
# with its reason (a row whose agent cannot start fails the run unless the row is optional).
files+=(test/real-world/conformance.test.ts)
cd "$ROOT"
# Each conformance cell (implementation × check) is written here, then printed as a matrix.
REAL_WORLD_MATRIX="$(mktemp)"
export REAL_WORLD_MATRIX
log="$(mktemp)"
trap 'rm -f "$REAL_WORLD_MATRIX" "$log"' EXIT
set +e
node --import tsx --test --test-concurrency=1 "${files[@]}" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
node --import tsx test/real-world/conformance/report.ts "$REAL_WORLD_MATRIX"
# node's own summary, again below the matrix
echo
grep -E '^(# |ℹ )(tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) ' "$log" || true
exit "$rc"
