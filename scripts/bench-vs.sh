#!/usr/bin/env bash
# Two builds of `tabletop` side by side: `tabletop bench GAME` for each game, the two
# binaries interleaved (A B A B A B) so that the machine's drift hits both alike, and the
# median moves/s of each with their ratio.
#   scripts/bench-vs.sh NEW_BINARY OLD_BINARY [SECONDS] [ROUNDS]
set -euo pipefail
new=${1:?the new tabletop binary}
old=${2:?the old tabletop binary}
seconds=${3:-3}
rounds=${4:-3}
moves() { "$1" bench "$2" --seconds "$seconds" | sed -n 's/.* \([0-9]*\) moves\/s$/\1/p'; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
for game in dropsite distopia euphoria; do
  a=(); b=()
  for _ in $(seq "$rounds"); do
    a+=("$(moves "$new" "$game")")
    b+=("$(moves "$old" "$game")")
  done
  ma=$(printf '%s\n' "${a[@]}" | median)
  mb=$(printf '%s\n' "${b[@]}" | median)
  printf '%-9s new %s  old %s  median new %s old %s  ratio %s\n' "$game" "${a[*]}" "${b[*]}" "$ma" "$mb" \
    "$(awk -v x="$ma" -v y="$mb" 'BEGIN {printf "%.3f", x / y}')"
done
