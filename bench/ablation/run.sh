#!/usr/bin/env bash
# Ablation of the SendMessage path (issue 16): where does `a2a` spend more client CPU than
# `undici`? Builds this checkout with switches patched in (switches.patch: each turns one part
# of the per-call work off when its name is in $ABL), then runs row 1 with that build as
# `a2a-base` beside the real build, once per switch set given:
#
#   bash bench/ablation/run.sh noparse nobody noparse,noprop nofetch nofetch,nowire noremember
#
# Switches: noparse (no response parsing, decoding or judging), nobody (body bytes not
# followed), noprop (no trace-context headers), nofetch (the fetch wrapper passes through: calls
# start at undici's request creation), nowire (request creation ignored), noremember (no
# negotiation remembered). Each run prints T1 (a2a ÷ undici) and T1-base, whose second half is
# the ablated build ÷ instrumentation-undici. ~2 minutes per switch set. The patch follows the
# code it was written against; refresh it when those lines move.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=$PWD
mkdir -p "$here/.bench-out"
work=$(mktemp -d /tmp/a2a-ablation.XXXXXX)
trap 'git -C "$here" worktree remove --force "$work" >/dev/null 2>&1 || true' EXIT
git worktree add -q --detach "$work" HEAD
git -C "$work" apply "$here/bench/ablation/switches.patch"
ln -s "$here/node_modules" "$work/node_modules"
(cd "$work" && node scripts/build.mjs >/dev/null)
npm run build >/dev/null
for abl in "$@"; do
  ABL=$abl BENCH_CONFIGS=sdk,undici,a2a,a2a-base BENCH_PHASES=send BENCH_SKIP=prof,5,6,7 \
    BENCH_BASE_DIST="$work/dist" BENCH_OUT_NAME="ablation-${abl//,/_}" \
    node --import tsx bench/run.ts >"$here/.bench-out/ablation-${abl//,/_}.log" 2>&1
  echo "== ABL=$abl"
  grep -E '^\| T1 |^\| T1-base' "$here/.bench-out/ablation-${abl//,/_}.log" | sed -E 's/ +/ /g'
done
