#!/usr/bin/env bash
# The three phases of benchmarks/nli_sweep.py on one GPU machine: six grid workers side by
# side, four seeds of the chosen recipe side by side, then their average. Arguments:
#   CORPORA  folder with scifact/ healthver/ covidfact/ sick/ rte/ (as in ../shared/corpora)
#   INIT     start weights (a folder with all-MiniLM-L6-v2: config, tokenizer, safetensors)
#   OUT      where the logs, summary.json and soup_fp16.pt (in parts of 15 MiB) are written
set -uo pipefail
CORPORA=${1:?corpora folder}; INIT=${2:?start weights}; OUT=${3:?output folder}
D=$(mktemp -d)
export PYTHONUNBUFFERED=1 PYTHONPATH=src${PYTHONPATH:+:$PYTHONPATH} TOKENIZERS_PARALLELISM=false
S="python3 benchmarks/nli_sweep.py --corpora $CORPORA --init $INIT --dir $D --threads 2 ${SWEEP_ARGS:-}"
mkdir -p "$OUT"
QUIET="warn|Loading weights|LOAD REPORT|MISSING|^Key|^---|^Notes|^$"
for w in 0 1 2 3 4 5; do $S grid --worker $w --workers 6 --minutes "${GRID_MINUTES:-1.6}" & done 2>&1 \
  | grep --line-buffered -v -i -E "$QUIET" | tee "$OUT/grid.log"
wait
for s in 13 14 15 16; do $S final --seed $s --minutes "${FINAL_MINUTES:-2.0}" & done 2>&1 \
  | grep --line-buffered -v -i -E "$QUIET" | tee "$OUT/final.log"
wait
$S soup 2>&1 | grep --line-buffered -v -i -E "$QUIET" | tee "$OUT/soup.log"
cp "$D/summary.json" "$OUT/" 2>/dev/null
[ -f "$D/soup_fp16.pt" ] && split -b 15M "$D/soup_fp16.pt" "$OUT/soup_fp16.pt.part_"
ls -la "$OUT"
