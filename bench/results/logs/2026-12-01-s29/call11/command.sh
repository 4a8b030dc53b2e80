#!/usr/bin/env bash
# s29 call 11 (wip/ring-start-limit, a diagnostic switch on main c76570b). Does the deep ring lose by its
# start? BLOCKFP8_DECODE_START_STAGES=S limits the first lap of the ring to S stages in flight (the
# footprint, and so the CTAs an SM, unchanged; later laps use the whole ring). Each (configuration, S) its
# own process, two interleaved reps. Call 10's timelines: on 2112x7168 at M = 16 the shallow ring's
# latest CTAs end 0.3 us nearer the median; on paired 4608x7168 the first stage lands 0.4-1.2 us sooner.
set -u
tar -xJf build-carry/s29c11.tar.xz
R=$OUT/run; mkdir -p $R; B=build-sl/blockfp8-bench
one() {  # shape m config S rep
  BLOCKFP8_DECODE_START_STAGES=$4 timeout 40 $B --shape $1 --m $2 --config $3 --no-cublaslt --no-bf16a --no-constw \
    --no-floor --no-check --json $R/x.jsonl > /dev/null 2>&1 || echo "failed $*"
  python3 -c "
import json,sys
rows=[json.loads(l) for l in open('$R/x.jsonl')]
r=[x for x in rows if x['backend']=='blockfp8:$3'][-1]
print('$1 $2 $3 S=$4 rep$5', round(r['cold_us'],3))" >> $R/times.txt
  rm -f $R/x.jsonl
}
for rep in 1 2; do
  for S in 0 4 5 6; do one 2112,7168 16 swapab_r64_t16_s3_w2_k2_p10 $S $rep; done
  for S in 0 4; do one 2112,7168 16 swapab_r64_t16_s3_w2_k2_p6 $S $rep; done
  for S in 0 8 10 12; do one 2112,7168 32 swapab_r64_t32_s3_w2_k1_p16 $S $rep; done
  for S in 0 5 6; do one 4608,7168 16 swapab_r64_t16_s3_w2_k1_p10 $S $rep; done
  one 4608,7168 16 swapab_r64_t16_s3_w2_k1_p6 0 $rep
  for S in 0 10 13; do one 7168,16384 16 swapab_r56_t16_s1_w2_k1_p21 $S $rep; done
  for S in 0 13; do one 7168,18432 16 swapab_r56_t16_s1_w2_k1_p21 $S $rep; done
done
sort $R/times.txt | tee $R/times_sorted.txt
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
