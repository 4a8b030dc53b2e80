#!/usr/bin/env bash
# s24 call 5. bench/probes/dsmem_rate at ce7158c + the probe: how fast distributed shared memory moves
# bytes between a cluster's CTAs (ld.shared::cluster pulls, one peer only, cp.async.bulk pushes, local
# reads), clusters of 2, 4 and 8 on every SM that holds one; slices of 24 and 8 KB.
set -u
rm -rf build-var && tar -xJf build-carry/var.tar.xz
R=$OUT/run; mkdir -p $R
timeout 60 build-var/N/dsmem_rate 24 64 > $R/dsmem_24k.md 2>&1; echo "rc=$?" >> $R/dsmem_24k.md
timeout 60 build-var/N/dsmem_rate 8 128 > $R/dsmem_8k.md 2>&1; echo "rc=$?" >> $R/dsmem_8k.md
cat $R/dsmem_24k.md $R/dsmem_8k.md
tar -C $OUT -czf $OUT/run.tgz run && rm -rf $R
