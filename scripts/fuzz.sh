#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan + UBSan, coverage on the libraries) in build-fuzz,
# seeds each one's corpus with small generated inputs and a few real files, and runs every
# target for SECONDS (default 60). Exits non-zero when any target finds a crash, a leak, a
# timeout or an out-of-memory; the input is left in build-fuzz/artifacts/.
# Usage: scripts/fuzz.sh [SECONDS]     env: PATHLAB_FUZZ_BUILD, PATHLAB_SHARED_DIR, PATHLAB_JOBS
set -euo pipefail
secs="${1:-60}"
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${PATHLAB_FUZZ_BUILD:-$here/build-fuzz}"
shared="${PATHLAB_SHARED_DIR:-$here/../shared}"
jobs="${PATHLAB_JOBS:-2}"
targets=(fuzz_map fuzz_scen fuzz_scene fuzz_png)

cmake -S "$here" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPATHLAB_FUZZ=ON -DPATHLAB_BUILD_TESTS=ON >/dev/null
cmake --build "$build" --target "${targets[@]}" -j"$jobs"

seeds="$build/seeds"
rm -rf "$seeds"
mkdir -p "$seeds"/{fuzz_map,fuzz_scen,fuzz_scene,fuzz_png} "$build/artifacts" "$build/dict"

# ---- seeds: small inputs that reach every branch of the readers quickly
d="$seeds/fuzz_map"
printf 'type octile\nheight 2\nwidth 3\nmap\n.T.\n@GW\n' > "$d/small.map"
printf 'width 4\r\ntype octile\r\nheight 2\r\nmap\r\nSOT.\r\n....\r\n\r\n' > "$d/crlf.map"
printf 'type octile\nheight 0\nwidth 0\nmap\n' > "$d/empty.map"
printf 'type octile\nheight 3\nwidth 2\nmap\n..\n.X\n' > "$d/badchar.map"
for f in "$shared"/data/dao/arena.map; do
  [ -f "$f" ] && [ "$(wc -c < "$f")" -le 8192 ] && cp "$f" "$d/"
done

d="$seeds/fuzz_scen"
printf 'version 1\n0\tmaps/dao/arena.map\t49\t49\t1\t11\t1\t12\t1\n1\tmaps/my maps/a.map\t49\t49\t1\t13\t4\t12\t3.41421\n' > "$d/v1.scen"
printf 'version 1.0\n0 arena.map 49 49 1 11 1 12 1.41421356\n' > "$d/v10.scen"
printf '0 arena.map 49 49 1 11 1 12 1e-3\n' > "$d/noversion.scen"
if [ -f "$shared/data/dao/arena.map.scen" ]; then head -n 12 "$shared/data/dao/arena.map.scen" > "$d/arena.scen"; fi

d="$seeds/fuzz_scene"
cat > "$d/minimal.json" <<'JSON'
{"pathlab_scene": 1,
 "map": {"width": 4, "height": 2, "rows": ["..T.", "@@.."]},
 "circles": [{"x": 10.5, "y": 20.0, "r": 3.0}],
 "agents": [{"name": "tank", "size": 2, "capability": ["ground", "swamp"], "radius": 0.5,
             "turning_radius": 2.0, "start": [1.5, 1.5, 0.0], "goal": [30.5, 12.5, 1.57]}]}
JSON
cat > "$d/full.json" <<'JSON'
{"pathlab_scene": 1,
 "palette": [{"name": "floor", "symbol": "f", "aliases": "F", "colour": [200, 200, 200], "cost": 1},
             {"name": "mud", "symbol": "m", "colour": [120, 90, 40], "cost": 2.5},
             {"name": "wall", "symbol": "#", "colour": [0, 0, 0], "obstacle": true}],
 "map": {"width": 3, "height": 2, "rows": ["fm#", "FFm"]},
 "agents": [{"size": 1, "capability": ["floor"], "can_reverse": true, "start": [0.5, 0.5]}],
 "views": [{"planner": "haa", "params": {"quality": "lq", "cluster_size": 15, "x": true}, "agent": 0}],
 "view": {"zoom": 2, "center": [1, 2]},
 "future": {"a": [1, 2.5e-3, null, "s\u00e9"]}}
JSON
printf '{"pathlab_scene": 1, "map": {"width": 5, "height": 3}}' > "$d/groundonly.json"
printf '{"pathlab_scene": 1, "map": {"file": "x.map"}}' > "$d/file.json"
[ -f "$here/assets/sample.json" ] && cp "$here/assets/sample.json" "$d/"

d="$seeds/fuzz_png"
  printf '\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00\x00\x03\x00\x00\x00\x02\x08\x02\x00\x00\x00\x12\x16\xf1\x4d\x00\x00\x00\x1b\x49\x44\x41\x54\x78\xda\x63\xb8\x77\x6d\x9f\x5e\x9e\x89\x43\xc5\x09\x06\x39\x39\xa5\xbc\x69\x15\x40\x3e\x00\x59\x2c\x09\x0f\xd2\x77\xac\x7a\x00\x00\x00\x00\x49\x45\x4e\x44\xae\x42\x60\x82' > "$d/rgb3x2.png"
  printf '\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00\x00\x02\x00\x00\x00\x02\x08\x00\x00\x00\x00\x57\xdd\x52\xf8\x00\x00\x00\x0e\x49\x44\x41\x54\x78\xda\x63\x60\xf8\xcf\xd0\x20\x00\x00\x05\x12\x01\x90\xa6\x94\x98\x6f\x00\x00\x00\x00\x49\x45\x4e\x44\xae\x42\x60\x82' > "$d/grey2x2.png"
  printf '\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00\x00\x04\x00\x00\x00\x04\x02\x03\x00\x00\x00\xd4\x9f\x76\xed\x00\x00\x00\x0c\x50\x4c\x54\x45\xde\xd6\xbe\x2e\x6e\x34\x40\x78\xc8\x1e\x1e\x22\x46\x55\xb5\x25\x00\x00\x00\x10\x49\x44\x41\x54\x78\xda\x63\x90\x66\x78\xc2\xc0\xc0\xf0\x1f\x00\x06\x38\x01\xff\x75\xd5\x19\x86\x00\x00\x00\x00\x49\x45\x4e\x44\xae\x42\x60\x82' > "$d/pal4x4.png"
  printf '\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00\x00\x02\x00\x00\x00\x01\x10\x06\x00\x00\x00\xa4\xb2\xa3\xc9\x00\x00\x00\x15\x49\x44\x41\x54\x78\xda\x63\x60\x60\x64\x62\x66\x61\xfd\xff\x9f\x13\x0c\x18\x18\x00\x14\xe0\x02\x44\x91\x4b\x73\xdb\x00\x00\x00\x00\x49\x45\x4e\x44\xae\x42\x60\x82' > "$d/rgba16_2x1.png"

# ---- dictionaries: the formats' keywords
printf 'kw1="type octile"\nkw2="height "\nkw3="width "\nkw4="map"\nkw5="\\x0d\\x0a"\nkw6="@"\nkw7="T"\nkw8="16384"\n' > "$build/dict/fuzz_map"
printf 'kw1="version 1"\nkw2="version 1.0"\nkw3="\\x09"\nkw4="maps/"\nkw5="1e308"\nkw6="16384"\n' > "$build/dict/fuzz_scen"
: > "$build/dict/fuzz_scene"
for k in pathlab_scene map file width height rows palette name symbol aliases colour cost obstacle \
         circles x y r agents size capability radius turning_radius can_reverse start goal views \
         planner params agent view ground swamp trees water hard; do
  printf 'kw_%s="\\"%s\\""\n' "$k" "$k" >> "$build/dict/fuzz_scene"
done
printf 'p1="IHDR"\np2="IDAT"\np3="IEND"\np4="PLTE"\np5="tRNS"\np6="\\x00\\x00\\x40\\x00"\n' > "$build/dict/fuzz_png"

declare -A max_len=([fuzz_map]=8192 [fuzz_scen]=4096 [fuzz_scene]=8192 [fuzz_png]=4096)

# ---- run
failed=()
for t in "${targets[@]}"; do
  corpus="$build/corpus/$t"
  mkdir -p "$corpus"
  echo "== $t: ${secs} s"
  if ! (cd "$build" && ASAN_OPTIONS=detect_leaks=1 "$build/tests/$t" "$corpus" "$seeds/$t" \
          -dict="$build/dict/$t" -max_len="${max_len[$t]}" -max_total_time="$secs" \
          -timeout=10 -rss_limit_mb=3072 -print_final_stats=1 \
          -artifact_prefix="$build/artifacts/$t-" 2> "$build/$t.log"); then
    failed+=("$t")
    tail -n 60 "$build/$t.log"
  fi
  grep -E '^(stat::number_of_executed_units|stat::new_units_added|stat::peak_rss_mb)|^Done' "$build/$t.log" || true
done

if [ "${#failed[@]}" -gt 0 ]; then
  echo "fuzzing found problems in: ${failed[*]} (inputs in $build/artifacts/)" >&2
  exit 1
fi
echo "fuzzing: no crashes in ${targets[*]} (${secs} s each)"
