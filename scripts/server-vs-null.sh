#!/usr/bin/env bash
# tabletop against the null server (the protocol's floor, docs/http-api.md "The floor"),
# interleaved in one run: tabletop, null server, tabletop, null server, ... under the same
# `tabletop load`, then each pair's ratios and their medians.
#
#   scripts/server-vs-null.sh [--pinned] [--pairs N] [--tables N] [--seconds S] [--db sqlite|postgres]
#                             [--null file|sqlite] [--instructions]
#
# Build first: cargo build --release --workspace --bins --examples (target/release/tabletop, or
# the binary named by TABLETOP, and target/release/examples/null_server, or the one named by
# NULL_SERVER). Each run gets a fresh database (a SQLite file, or
# the PostgreSQL database tabletop_bench at 127.0.0.1:5432, dropped and made again). The
# null server appends its moves to a synced file (`--null file`, the default) or, with
# `--null sqlite`, keeps them as rows in a SQLite file as tabletop does and sends each seat
# a state of tabletop's size (its `--mode sqlite`). `--pinned` puts the server on
# core 0 and the load on core 1 (taskset); otherwise the kernel places them. With
# PostgreSQL the database's processes' CPU a move is read too (`--db-pid`, the postmaster:
# its workers count with it).
#
# `--instructions` runs each server under callgrind (valgrind) instead, and counts its
# instructions a move (user space only; the kernel's part is not counted): the counters are
# zeroed 8 s after the load starts (its tables made and warmed up) and read `--seconds`
# later, and the moves are the rows the server stored meanwhile. The machine has no
# hardware counters (`perf stat` cannot count instructions in this VM), and unlike CPU time
# the count hardly depends on what else the machine runs: the figure to compare builds by on
# a shared machine. Servers under callgrind run 20-50 times slower, so the load saturates
# them (bigger batches than in a plain run); the CPU figures of such a run mean nothing.
# SQLite only. Each run also leaves its callgrind profile in $CALLGRIND_DIR if that is set.
set -euo pipefail
cd "$(dirname "$0")/.."
pinned=0 pairs=3 tables=200 seconds=15 db=sqlite null_mode=file instructions=0
while [ $# -gt 0 ]; do
  case "$1" in
    --pinned) pinned=1 ;;
    --pairs) pairs=$2; shift ;;
    --tables) tables=$2; shift ;;
    --seconds) seconds=$2; shift ;;
    --db) db=$2; shift ;;
    --null) null_mode=$2; shift ;;
    --instructions) instructions=1 ;;
    *) echo "unknown argument $1 (see the script's first lines)" >&2; exit 2 ;;
  esac
  shift
done
if [ "$instructions" = 1 ] && [ "$db" != sqlite ]; then
  echo "--instructions counts the moves in SQLite files: not with --db $db" >&2
  exit 2
fi
case "$null_mode" in
  file) null_db=db.log ;;
  sqlite) null_db=db.sqlite ;;
  *) echo "--null takes file or sqlite, not $null_mode" >&2; exit 2 ;;
esac
tt=${TABLETOP:-target/release/tabletop} null=${NULL_SERVER:-target/release/examples/null_server}
for b in "$tt" "$null"; do
  [ -x "$b" ] || { echo "$b is missing: cargo build --release --workspace --bins --examples" >&2; exit 2; }
done
work=$(mktemp -d)
server_core=() load_core=()
if [ "$pinned" = 1 ]; then server_core=(taskset -c 0) load_core=(taskset -c 1); fi
pg_pid() { head -n 1 "$(psql -qAt -h 127.0.0.1 -U postgres -c 'show data_directory')/postmaster.pid"; }

# The moves a server has stored so far (its database's action rows, or the null server's
# file's lines).
stored() {
  if [ -f "$work/db.log" ]; then
    wc -l <"$work/db.log"
  else
    python3 -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1], timeout=10).execute("select count(*) from actions").fetchone()[0])' "$work/db.sqlite"
  fi
}

# One measurement: `run KIND` prints the load's JSON report (with `--instructions`, the
# server's instructions and moves in the counted window instead of the load's report).
run() {
  local kind=$1 port=$((18900 + RANDOM % 500)) database extra=() grind=()
  rm -f "$work"/db* "$work"/callgrind.*
  if [ "$instructions" = 1 ]; then
    grind=(valgrind -q --tool=callgrind "--callgrind-out-file=$work/callgrind.$kind.%p")
  fi
  if [ "$kind" = null ]; then
    "${server_core[@]}" "${grind[@]}" "$null" serve --addr "127.0.0.1:$port" --database "sqlite://$work/$null_db" \
      --mode "$null_mode" >/dev/null &
  else
    database="sqlite://$work/db.sqlite"
    if [ "$db" = postgres ]; then
      psql -q -h 127.0.0.1 -U postgres -c "DROP DATABASE IF EXISTS tabletop_bench" \
        -c "CREATE DATABASE tabletop_bench" >/dev/null
      database=postgres://postgres@127.0.0.1:5432/tabletop_bench
      extra=(--db-pid "$(pg_pid)")
    fi
    "${server_core[@]}" "${grind[@]}" "$tt" serve --addr "127.0.0.1:$port" --database "$database" --no-rate-limits \
      2>"$work/serve.log" >/dev/null &
  fi
  local pid=$!
  for _ in $(seq 300); do curl -sf "http://127.0.0.1:$port/api/games" >/dev/null && break; sleep 0.1; done
  if [ "$instructions" = 1 ]; then
    "${load_core[@]}" "$tt" load --addr "http://127.0.0.1:$port" --tables "$tables" \
      --seconds "$((seconds + 12))" --json >/dev/null &
    local load=$!
    sleep 8
    callgrind_control -z "$pid" >/dev/null
    local first
    first=$(stored)
    sleep "$seconds"
    callgrind_control -d "$pid" >/dev/null
    local last
    last=$(stored)
    wait "$load" || true
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    # The dump after the zeroing is the one whose name ends in .1.
    local count
    count=$(sed -n 's/^summary: //p' "$work"/callgrind."$kind".*.1 | head -n 1)
    if [ -n "${CALLGRIND_DIR:-}" ]; then
      cp "$work"/callgrind."$kind".*.1 "$CALLGRIND_DIR/" 2>/dev/null || true
    fi
    echo "{\"instructions\": ${count:-0}, \"moves\": $((last - first))}"
    return
  fi
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

if [ "$instructions" = 1 ]; then
  python3 - "${results[@]}" <<'EOF'
import json, statistics, sys
runs = [json.loads(r) for r in sys.argv[1:]]
print("instructions a move (user space, under callgrind)")
print("| pair | tabletop moves | tabletop instructions/move | null moves | null instructions/move | ratio |")
print("|---|---:|---:|---:|---:|---:|")
tt, nl, ratios = [], [], []
for i in range(0, len(runs) - 1, 2):
    t, n = runs[i], runs[i + 1]
    if not (t["moves"] and n["moves"] and t["instructions"] and n["instructions"]):
        print(f"| {i // 2 + 1} | a run failed |")
        continue
    a, b = t["instructions"] / t["moves"], n["instructions"] / n["moves"]
    tt.append(a); nl.append(b); ratios.append(a / b)
    print(f"| {i // 2 + 1} | {t['moves']} | {a:,.0f} | {n['moves']} | {b:,.0f} | {a / b:.2f} |")
if ratios:
    print(f"median instructions a move: tabletop {statistics.median(tt):,.0f}, null server "
          f"{statistics.median(nl):,.0f}, median ratio {statistics.median(ratios):.2f}")
EOF
  exit 0
fi

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
