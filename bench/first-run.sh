#!/usr/bin/env bash
# Clone -> serving seeded service, as a newcomer would (README: npm install && npm start),
# in a private folder with a space in its path; then a second start.
#   bash bench/first-run.sh [PORT]     prints install, first start and second start seconds
# Run it as root and as a normal user (e.g. `runuser -u tester -- bash bench/first-run.sh 3401`).
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
port="${1:-3400}"
base="$(mktemp -d)"; chmod 700 "$base"
dir="$base/my clone"
export NEXT_TELEMETRY_DISABLED=1 PORT="$port"
unset DATABASE_URL DATA_DIR

now() { date +%s.%N; }
wait_healthy() { until curl -fsS "http://127.0.0.1:$port/api/health" >/dev/null 2>&1; do sleep 0.5; done; }
# SIGTERM: a background job of a non-interactive shell ignores SIGINT.
# Each start runs in its own process group (setsid), stopped as a whole like Ctrl+C
# stops a terminal's: npm's `sh -c` does not pass a signal on to the server.
stop() {
  kill -TERM -- "-$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
  while curl -fsS "http://127.0.0.1:$port/api/health" >/dev/null 2>&1; do sleep 0.2; done
}

t0=$(now)
# As another user than the checkout's owner, git first needs: git config --global --add safe.directory '*'
git clone -q "$src" "$dir"
cd "$dir"
npm install --no-audit --no-fund >/dev/null 2>&1
t1=$(now)
setsid npm start >"$base/start1.log" 2>&1 & pid=$!
wait_healthy; t2=$(now)
stop $pid
setsid npm start >"$base/start2.log" 2>&1 & pid=$!
wait_healthy; t3=$(now)
grep -q "ready at" "$base/start2.log" || { sleep 2; grep -q "ready at" "$base/start2.log"; } || { echo "second start failed:"; cat "$base/start2.log"; }
stop $pid
npm run --silent db:stop >/dev/null
cluster="$(sed -n 's/.*cluster \(\/var\/lib\/partner-marketplace\/clusters\/[0-9a-f]*\)\/pg.*/\1/p' "$base/start1.log" | head -1)"
grep -E "database:|ready at" "$base/start1.log" | sed 's/^/  /'
printf 'clone+install %.1f s, first start %.1f s (clone -> serving %.1f s), second start %.1f s\n' \
  "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)" "$(echo "$t2 - $t0" | bc)" "$(echo "$t3 - $t2" | bc)"
rm -rf "$base"
if [ -n "$cluster" ]; then rm -rf "$cluster"; fi
