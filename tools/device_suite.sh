#!/usr/bin/env bash
# Every GPU check and the benchmark, in one call, for the lent H200 (or any Hopper box).
# Build first (here or there): cmake -S . -B build -G Ninja && cmake --build build
# Then: OUT=/some/dir bash tools/device_suite.sh [build-dir] [steps...]
# Steps (default: all but ab and timeline, in this order): env tests probe bench python pybench fuzz
# ab timeline sanitizer. ab: diagnostic switches (AB_VARS, default BLOCKFP8_PDL=0): the GPU tests run
# with each at its non-default value, and each timed on and off (AB_ARGS: where; e.g.
# AB_VARS=BLOCKFP8_FUSED=0 with decode shapes). timeline:
# bench/probes/decode_timeline on the decode shapes, PDL on and off (needs a probe staged from a
# -DBLOCKFP8_TIMELINE=ON build: tools/stage_device_build.sh's third argument).
# BUDGET (seconds, default 540) bounds the whole run: each step's limit shrinks to what is left,
# and a step with no time left is skipped, so the archive is always written. Within a step, the GPU
# tests, the fuzzer and the bench end themselves (exit 124, naming the test, case or point) when one
# item runs past BLOCKFP8_TEST_TIMEOUT / BLOCKFP8_BENCH_TIMEOUT seconds (60 / 120): a device hang
# costs a minute or two, not the budget.
# Writes logs under $OUT/run/ and packs them into $OUT/device-run.tgz; prints a short summary last.
set -u
BUILD=${1:-build}
shift || true
STEPS=${*:-"env tests probe bench python pybench fuzz sanitizer"}
DEADLINE=$((SECONDS + ${BUDGET:-540}))
OUT=${OUT:-$PWD/device-out}
R=$OUT/run
mkdir -p "$R"
COMMIT=$(cat "$BUILD/COMMIT" 2>/dev/null || git rev-parse --short HEAD 2>/dev/null || echo unknown)
export BLOCKFP8_COMMIT=$COMMIT BLOCKFP8_LIBRARY=$PWD/$BUILD/libblockfp8.so PYTHONUNBUFFERED=1
SUMMARY=$R/summary.txt
note() { echo "$*" | tee -a "$SUMMARY"; }
step() { case " $STEPS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
# run NAME SECONDS CMD...: one step with a time limit, its output in $R/NAME.log, its status in the summary
run() {
  local name=$1 secs=$2
  shift 2
  local left=$((DEADLINE - SECONDS - 10))
  [ "$secs" -gt "$left" ] && secs=$left
  if [ "$secs" -le 0 ]; then
    note "$(printf '%-28s skipped: no time left in BUDGET' "$name")"
    return
  fi
  local t0=$SECONDS
  timeout "$secs" "$@" >"$R/$name.log" 2>&1
  local rc=$?
  note "$(printf '%-28s rc=%-3d %4ds  %s' "$name" "$rc" $((SECONDS - t0)) "$(tail -n 1 "$R/$name.log" | cut -c1-110)")"
}

note "blockfp8 device suite  commit=$COMMIT  date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
if step env; then
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw --format=csv >"$R/env.log" 2>&1
  note "$(tail -n 1 "$R/env.log")"
  SASS=$(mktemp)  # disassembled once, read twice
  cuobjdump -sass "$BUILD/libblockfp8.so" >"$SASS"
  grep -oE 'QGMMA\.[^ ]*' "$SASS" | sort | uniq -c >"$R/sass_qgmma.log"
  note "QGMMA kinds in SASS: $(wc -l <"$R/sass_qgmma.log"); local-memory ops (LDL/STL): $(grep -cE '\b(LDL|STL)\b' "$SASS")"
  rm -f "$SASS"
fi
if step tests; then
  run gpu_tests 240 "$BUILD/tests/blockfp8_gpu_tests"
  run unit_tests 60 "$BUILD/tests/blockfp8_unit_tests"
  run api_tests 60 "$BUILD/tests/blockfp8_api_tests"
fi
if step probe; then
  # One process per (variant, split) that `load_patterns` lists, 20 s each: a fault in one variant
  # kills only its own CUDA context. Everything goes to one log; one summary line.
  P=$BUILD/bench/load_patterns
  if [ -x "$P" ]; then
    LOG=$R/probe_load_patterns.log
    : >"$LOG"
    ok=0 failed=0 skipped=0 t0=$SECONDS
    while read -r variant split; do
      case "$variant" in '' | '#'*) continue ;; esac
      if [ $((DEADLINE - SECONDS - 10)) -lt 20 ]; then
        skipped=$((skipped + 1))
        echo "$variant $split: skipped, no time left in BUDGET" >>"$LOG"
        continue
      fi
      timeout 20 "$P" "$variant" "$split" >>"$LOG" 2>&1
      rc=$?
      if [ "$rc" -eq 0 ]; then
        ok=$((ok + 1))
      else
        failed=$((failed + 1))
        echo "$variant $split: rc=$rc$([ "$rc" -eq 124 ] && echo ' (timed out after 20 s)')" >>"$LOG"
      fi
    done < <("$P")
    note "$(printf '%-28s %d ok, %d failed, %d skipped  %4ds' probe_load_patterns "$ok" "$failed" "$skipped" $((SECONDS - t0)))"
  fi
fi
if step bench; then
  B=$BUILD/bench/blockfp8-bench
  run bench_floor_gb 60 "$B" --floor-gb 1
  run bench_repeat 120 "$B" --repeat-check --m 1,4,16,64,256
  run bench 420 "$B" --json "$R/bench.jsonl" ${BENCH_ARGS:-}
  cp "$R/bench.log" "$R/bench.md" 2>/dev/null
  run bench_quant 90 "$B" --quant --json "$R/bench_quant.jsonl"
  run bench_host_overhead 30 "$B" --host-overhead
  # 9216x7168 and 4608x7168: the dispatcher picks split 8 and 3 there (several rounds of clusters),
  # measured 1.79x and 1.57x the floor at M = 1 (1465364) where single-round shapes sit at 1.2-1.4x.
  run bench_paths 150 "$B" --shape 2112,7168 --shape 9216,7168 --shape 4608,7168 --paths --m 1,4,16,32,64,128,256 --json "$R/bench_paths.jsonl"
  # The same without PDL: configurations that leave SMs idle (split 2 on 2112x7168) gain from the next
  # call's CTAs starting there early, which back-to-back identical calls reward and a model may not.
  BLOCKFP8_PDL=0 run bench_paths_nopdl 60 "$B" --shape 2112,7168 --paths --m 1,4,16,32 --no-cublaslt --json "$R/bench_paths_nopdl.jsonl"
  run plot 120 python3 bench/plot.py "$R/bench.jsonl" --out-dir "$R/plots" --md "$R/results.md" \
    --command "blockfp8-bench --json bench.jsonl ${BENCH_ARGS:-}"
fi
if step python; then
  run pytest 300 python3 -m pytest tests/python -q -s -p no:cacheprovider
fi
if step pybench; then
  PYTHONPATH=$PWD/python run pybench_peers 60 python3 -m blockfp8.bench --list-peers
  PYTHONPATH=$PWD/python run pybench 240 python3 -m blockfp8.bench --shape 2112,7168 --shape 576,7168 \
    --shape 36864,7168 --m 1,4,16,64,256,1024,4096 --json "$R/pybench.jsonl" --plot-dir "$R/pyplots"
fi
if step fuzz; then
  [ -x "$BUILD/tests/blockfp8_fuzz" ] && run fuzz 300 "$BUILD/tests/blockfp8_fuzz" --cases ${FUZZ_CASES:-2000} --max-seconds ${FUZZ_SECONDS:-240}
fi
if step ab; then
  # Diagnostic switches: correctness with each at its non-default value, then each timed on and off,
  # interleaved (tools/env_ab.sh). AB_VARS lists VAR=value, the value the tests run at (the
  # non-default one: BLOCKFP8_PDL and BLOCKFP8_FUSED are on by default).
  # AB_VARS / AB_ARGS override what and where.
  AB_VARS=${AB_VARS:-"BLOCKFP8_PDL=0"}
  AB_ARGS=${AB_ARGS:-"--shape 2112,7168 --shape 576,7168 --shape 7168,2048 --m 1,4,32 --no-cublaslt"}
  # shellcheck disable=SC2086
  run ab_tests 120 env $AB_VARS "$BUILD/tests/blockfp8_gpu_tests" --gtest_filter='Tiled*:Gemm*:Reliability*:Fused*'
  for v in $AB_VARS; do
    # shellcheck disable=SC2086
    OUT=$R run "ab_${v%%=*}" 200 bash tools/env_ab.sh "$BUILD" "${v%%=*}" $AB_ARGS
  done
fi
if step timeline; then
  T=$BUILD/bench/decode_timeline
  if [ -x "$T" ]; then
    {
      for a in "2112 7168 1" "2112 7168 32" "576 7168 1" "6144 7168 1" "32768 512 1" "2112 7168 1 bf16a"; do
        # shellcheck disable=SC2086
        timeout 20 "$T" $a
        echo
      done
      BLOCKFP8_PDL=0 timeout 20 "$T" 2112 7168 1
    } >"$R/timeline.log" 2>&1
    note "$(printf '%-28s %d calls timed' timeline "$(grep -c '^decode_timeline' "$R/timeline.log")")"
  else
    note "timeline                     skipped: no $T (stage a -DBLOCKFP8_TIMELINE=ON build)"
  fi
fi
if step sanitizer; then
  # compute-sanitizer slows kernels by 10-100x: give each test longer before the hang watchdog fires.
  export BLOCKFP8_TEST_TIMEOUT=${SANITIZER_TEST_TIMEOUT:-190}
  F=${SANITIZER_FILTER:-'ReliabilityTest.SanitizerSmoke:ReliabilityTest.NanInfPropagation:GemmTest.ZeroMIsANoOp:GemmTest.MisalignedInputsServedByFallback:GemmTest.ForcedWarpMmaLayouts:Quantize1x128.DivisionHardCases:FusedTest.SanitizerSmoke:ReliabilityTest.BadInputsBf16a'}
  for tool in memcheck racecheck synccheck; do
    run "sanitizer_$tool" 200 compute-sanitizer --tool "$tool" --error-exitcode 99 "$BUILD/tests/blockfp8_gpu_tests" --gtest_filter="$F"
  done
fi
tar -C "$OUT" -czf "$OUT/device-run.tgz" run
cp "$SUMMARY" "$OUT/summary.txt"
cat "$SUMMARY"
