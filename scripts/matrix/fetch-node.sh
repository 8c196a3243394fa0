# Sourced by scripts/matrix/run.sh and scripts/bench-nodes.sh: fetch_node MAJOR prints the bin
# dir holding `node` for the newest MAJOR.x of the npm package node-linux-<arch> (what the
# `node` package installs; its tarball carries bin/node), cached under $CACHE/node/<version>.
# Needs: CACHE, NODE_PKG, SYS_NODE and a `log` function.

# fetch_node MAJOR -> prints the bin dir holding `node` for the newest MAJOR.x on the registry
# (or, when the registry cannot be asked, the newest one already cached).
fetch_node() {
  local major="$1" version dir tgz tmp
  version="$(npm view "$NODE_PKG@$major" version --json 2>/dev/null | "$SYS_NODE" -e '
    let s = ""; process.stdin.on("data", (c) => (s += c)).on("end", () => {
      try { const v = JSON.parse(s); const a = Array.isArray(v) ? v : [v];
        a.sort((x, y) => { const p = (q) => q.split(".").map(Number); const [a1, b1] = [p(x), p(y)];
          for (let i = 0; i < 3; i++) if (a1[i] !== b1[i]) return a1[i] - b1[i]; return 0; });
        process.stdout.write(a[a.length - 1] || ""); } catch { } });')"
  if [ -z "$version" ]; then
    version="$(ls "$CACHE/node" 2>/dev/null | grep -E "^$major\." | sort -V | tail -1)"
    [ -n "$version" ] || { log "cannot resolve $NODE_PKG@$major and none is cached"; return 1; }
    log "registry not answering; using cached node $version"
  fi
  dir="$CACHE/node/$version"
  if [ ! -x "$dir/bin/node" ]; then
    log "fetching $NODE_PKG@$version from the npm registry"
    tmp="$(mktemp -d "$CACHE/node/.fetch.XXXXXX")"
    (cd "$tmp" && npm pack "$NODE_PKG@$version" --silent >/dev/null) || { rm -rf "$tmp"; return 1; }
    tgz="$(ls "$tmp"/*.tgz)"
    mkdir -p "$tmp/x" && tar -xzf "$tgz" -C "$tmp/x" package/bin/node package/LICENSE || { rm -rf "$tmp"; return 1; }
    "$tmp/x/package/bin/node" --version >/dev/null || { rm -rf "$tmp"; return 1; }
    rm -rf "$dir" && mkdir -p "$dir" && mv "$tmp/x/package/bin" "$tmp/x/package/LICENSE" "$dir/" && rm -rf "$tmp"
  fi
  echo "$dir/bin"
}

