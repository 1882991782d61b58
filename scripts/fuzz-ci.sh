#!/usr/bin/env bash
# Builds every fuzz target of fuzz/ and runs each briefly on its fixed corpus
# (fuzz/corpus/TARGET), two at a time: the targets build, and neither the corpus nor what
# libFuzzer makes of it in a few seconds breaks what they assert. docs/fuzzing.md says how
# to fuzz for hours.
#
# It needs no cargo-fuzz and no nightly toolchain: it passes rustc the flags `cargo fuzz
# build --sanitizer none --debug-assertions` would (coverage counters and comparison
# tracing for libFuzzer, overflow checks, `--cfg fuzzing`), which stable rustc takes, and
# runs the libFuzzer binaries itself. No AddressSanitizer: the workspace forbids unsafe
# code, and the build and the runs are much faster without it.
#
#   FUZZ_SECONDS  seconds each target runs (default 8)
#   FUZZ_JOBS     targets run at once (default 2)
#   FUZZ_TARGETS  the targets to run, separated by spaces (default all)
#   FUZZ_OPT_LEVEL  the targets' opt-level (default 0)
#   FUZZ_BUILD_ONLY  set to 1: build the targets and stop (.ci/run builds them while the
#                    tests run, then runs them)
set -euo pipefail
cd "$(dirname "$0")/../fuzz"

seconds=${FUZZ_SECONDS:-8}
jobs=${FUZZ_JOBS:-2}
# The targets are built unoptimized here: most of the time is the build, and a few
# seconds of fuzzing need no speed. `FUZZ_OPT_LEVEL=3` builds them as for long runs.
opt=${FUZZ_OPT_LEVEL:-0}
triple=$(rustc -vV | sed -n 's/^host: //p')
# The flags `cargo fuzz build -s none -a` passes (one a line in fuzz/rustflags).
rustflags=$(tr '\n' ' ' <rustflags)
targets=${FUZZ_TARGETS:-$(sed -n 's/^name = "\(.*_.*\)"$/\1/p' Cargo.toml | grep -v '^tabletop-fuzz$')}

start=$(date +%s)
# --target keeps these flags off build scripts and proc macros, as cargo fuzz does.
RUSTFLAGS="$rustflags" cargo build --release --locked --target "$triple" --bins \
  --config "profile.release.opt-level=$opt" --config profile.release.debug=false
built=$(date +%s)
echo "fuzz: built the targets in $((built - start)) s"
[ "${FUZZ_BUILD_ONLY:-0}" = 1 ] && exit 0

target_dir=${CARGO_TARGET_DIR:-target}
bin="$target_dir/$triple/release"
runs="$target_dir/ci"
rm -rf "$runs"
mkdir -p "$runs"

# One target: new inputs go to a scratch folder (the fixed corpus stays as committed),
# crashes to target/ci/TARGET/ as crash-HASH files (under CARGO_TARGET_DIR if set).
run_one() {
  local target=$1
  mkdir -p "$runs/$target/new"
  if "$bin/$target" "$runs/$target/new" "corpus/$target" \
      -max_total_time="$seconds" -timeout=20 -rss_limit_mb=3072 -print_final_stats=1 \
      -artifact_prefix="$runs/$target/" >"$runs/$target.log" 2>&1; then
    echo "fuzz: $target ok ($(grep -o 'stat::number_of_executed_units: *[0-9]*' "$runs/$target.log" | grep -o '[0-9]*$') runs)"
  else
    echo "fuzz: $target FAILED; its log ends:"
    tail -n 40 "$runs/$target.log"
    for crash in "$runs/$target"/crash-* "$runs/$target"/timeout-* "$runs/$target"/oom-*; do
      [ -e "$crash" ] && echo "fuzz: the input ($crash), base64: $(base64 -w0 "$crash")"
    done
    return 1
  fi
}
export -f run_one
export bin runs seconds

failed=0
printf '%s\n' $targets | xargs -P "$jobs" -I{} bash -c 'run_one {}' || failed=1
echo "fuzz: ran $(printf '%s\n' $targets | wc -l) targets for ${seconds} s each in $(($(date +%s) - built)) s (build and runs: $(($(date +%s) - start)) s)"
exit $failed
