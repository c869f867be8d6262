#!/bin/sh
# On the GPU machine: the issue-order probe (orderprobe.cu) with its SASS
# and Nsight Compute's instruction counts, chainprobe's SASS beside it, and
# the latency probe rebuilt with eight chains side by side (latgen.py 8:
# one warp's issue interval per instruction, tp.txt). OUT=DIR sh order.sh
set -u
cd "$(dirname "$0")"
R=$OUT/latprobe; mkdir -p $R
nvidia-smi --query-gpu=name,uuid,driver_version,clocks.sm,clocks.max.sm --format=csv > $R/order-env.txt
nvcc -O3 -arch=sm_90 -o /tmp/orderprobe orderprobe.cu > $R/order-build.log 2>&1
/tmp/orderprobe > $R/order.txt 2>&1
/tmp/orderprobe > $R/order2.txt 2>&1
ncu --metrics smsp__inst_executed.sum --csv /tmp/orderprobe > $R/order-ncu.csv 2> $R/order-ncu.err
cuobjdump -sass /tmp/orderprobe > $R/order-sass.txt 2>&1
nvcc -O3 -arch=sm_90 -o /tmp/chainprobe chainprobe.cu >> $R/order-build.log 2>&1
cuobjdump -sass /tmp/chainprobe > $R/chain-sass.txt 2>&1
python3 latgen.py 8
nvcc -O3 -arch=sm_90 -o /tmp/tpprobe latprobe.cu >> $R/order-build.log 2>&1
/tmp/tpprobe > $R/tp.txt 2>&1
/tmp/tpprobe > $R/tp2.txt 2>&1
cuobjdump -sass /tmp/tpprobe > $R/tp-sass.txt 2>&1
python3 latgen.py
gzip -9 $R/order-sass.txt $R/chain-sass.txt $R/tp-sass.txt
