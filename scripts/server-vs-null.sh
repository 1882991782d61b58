#!/usr/bin/env bash
# tabletop against the null server (the protocol's floor, docs/http-api.md "The floor"),
# interleaved in one run: tabletop, null server, tabletop, null server, ... under the same
# `tabletop load`, then each pair's ratios and their medians.
#
#   scripts/server-vs-null.sh [--pinned] [--pairs N] [--tables N] [--seconds S] [--db sqlite|postgres]
#                             [--null file|sqlite]
#
# Build first: cargo build --release --workspace --bins --examples (target/release/tabletop, or
# the binary named by TABLETOP, and
# target/release/examples/null_server). Each run gets a fresh database (a SQLite file, or
# the PostgreSQL database tabletop_bench at 127.0.0.1:5432, dropped and made again). The
# null server appends its moves to a synced file (`--null file`, the default) or, with
# `--null sqlite`, keeps them as rows in a SQLite file as tabletop does and sends each seat
# a state of tabletop's size (its `--mode sqlite`). `--pinned` puts the server on
# core 0 and the load on core 1 (taskset); otherwise the kernel places them. With
# PostgreSQL the database's processes' CPU a move is read too (`--db-pid`, the postmaster:
# its workers count with it).
set -euo pipefail
cd "$(dirname "$0")/.."
pinned=0 pairs=3 tables=200 seconds=15 db=sqlite null_mode=file
while [ $# -gt 0 ]; do
  case "$1" in
    --pinned) pinned=1 ;;
    --pairs) pairs=$2; shift ;;
    --tables) tables=$2; shift ;;
    --seconds) seconds=$2; shift ;;
    --db) db=$2; shift ;;
    --null) null_mode=$2; shift ;;
    *) echo "unknown argument $1 (see the script's first lines)" >&2; exit 2 ;;
  esac
  shift
done
case "$null_mode" in
  file) null_db=db.log ;;
  sqlite) null_db=db.sqlite ;;
  *) echo "--null takes file or sqlite, not $null_mode" >&2; exit 2 ;;
esac
tt=${TABLETOP:-target/release/tabletop} null=target/release/examples/null_server
for b in "$tt" "$null"; do
  [ -x "$b" ] || { echo "$b is missing: cargo build --release --workspace --bins --examples" >&2; exit 2; }
done
work=$(mktemp -d)
server_core=() load_core=()
if [ "$pinned" = 1 ]; then server_core=(taskset -c 0) load_core=(taskset -c 1); fi
pg_pid() { head -n 1 "$(psql -qAt -h 127.0.0.1 -U postgres -c 'show data_directory')/postmaster.pid"; }

# One measurement: `run KIND` prints the load's JSON report.
run() {
  local kind=$1 port=$((18900 + RANDOM % 500)) database extra=()
  rm -f "$work"/db*
  if [ "$kind" = null ]; then
    "${server_core[@]}" "$null" serve --addr "127.0.0.1:$port" --database "sqlite://$work/$null_db" \
      --mode "$null_mode" >/dev/null &
  else
    database="sqlite://$work/db.sqlite"
    if [ "$db" = postgres ]; then
      psql -q -h 127.0.0.1 -U postgres -c "DROP DATABASE IF EXISTS tabletop_bench" \
        -c "CREATE DATABASE tabletop_bench" >/dev/null
      database=postgres://postgres@127.0.0.1:5432/tabletop_bench
      extra=(--db-pid "$(pg_pid)")
    fi
    "${server_core[@]}" "$tt" serve --addr "127.0.0.1:$port" --database "$database" --no-rate-limits \
      2>"$work/serve.log" >/dev/null &
  fi
  local pid=$!
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/api/games" >/dev/null && break; sleep 0.1; done
  "${load_core[@]}" "$tt" load --addr "http://127.0.0.1:$port" --tables "$tables" --seconds "$seconds" \
    --server-pid "$pid" "${extra[@]}" --json || echo '{"failed": true}'
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

results=()
for i in $(seq "$pairs"); do
  results+=("$(run tabletop)")
  results+=("$(run null)")
  echo "pair $i of $pairs done" >&2
done
rm -rf "$work"

python3 - "$db" "$pinned" "$null_mode" "${results[@]}" <<'EOF'
import json, statistics, sys
db, pinned, null_mode = sys.argv[1], sys.argv[2] == "1", sys.argv[3]
runs = [json.loads(r) for r in sys.argv[4:]]
null_kind = "synced file" if null_mode == "file" else "SQLite rows, states of tabletop's size"
print(f"tabletop ({db}) against the null server ({null_kind}), {'pinned: server on core 0, load on core 1' if pinned else 'unpinned'}")
print("| pair | tabletop moves/s | null moves/s | tabletop CPU ms/move | null CPU ms/move | CPU ratio | tabletop p99 ms | null p99 ms | p99 ratio |" + (" db CPU ms/move |" if db == "postgres" else ""))
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|" + ("---:|" if db == "postgres" else ""))
cpu, p99, tt_cpu, null_cpu = [], [], [], []
for i in range(0, len(runs) - 1, 2):
    t, n = runs[i], runs[i + 1]
    if t.get("failed") or n.get("failed"):
        print(f"| {i // 2 + 1} | a run failed |")
        continue
    c = t["server_cpu_ms_per_move"] / n["server_cpu_ms_per_move"]
    p = t["p99_ms"] / n["p99_ms"]
    cpu.append(c); p99.append(p)
    tt_cpu.append(t["server_cpu_ms_per_move"]); null_cpu.append(n["server_cpu_ms_per_move"])
    row = (f"| {i // 2 + 1} | {t['moves_per_s']:.0f} | {n['moves_per_s']:.0f} | {t['server_cpu_ms_per_move']:.4f} | "
           f"{n['server_cpu_ms_per_move']:.4f} | {c:.2f} | {t['p99_ms']:.1f} | {n['p99_ms']:.1f} | {p:.2f} |")
    if db == "postgres":
        row += f" {t.get('db_cpu_ms_per_move', 0):.4f} |"
    print(row)
if cpu:
    tm, nm = statistics.median(tt_cpu), statistics.median(null_cpu)
    print(f"median CPU a move: tabletop {tm:.4f} ms, null server {nm:.4f} ms, their ratio {tm / nm:.2f}")
    print(f"median CPU ratio {statistics.median(cpu):.2f}, median p99 ratio {statistics.median(p99):.2f} ({len(cpu)} pairs)")
EOF
