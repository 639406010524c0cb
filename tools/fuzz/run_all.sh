#!/bin/sh
# Every target in turn, one process at a time, niced: about 40 minutes in all.
# Usage: tools/fuzz/run_all.sh [PYTHON] [WORKDIR]   (a venv with atheris and chkobba)
PYTHON=${1:-python}
WORK=${2:-${TMPDIR:-/tmp}/chkobba-fuzz}
HERE=$(dirname "$0")
mkdir -p "$WORK"
for pair in record:420 lines:180 state:300 view:240 rules:240 move_in_state:240 \
            move:180 card:120 outcome:180 actions:180 botspec:120; do
    target=${pair%%:*}
    seconds=${pair##*:}
    echo "== $target ($seconds s) $(date -u +%H:%M:%S)"
    nice -n 10 "$PYTHON" "$HERE/fuzz_readers.py" "$target" --seconds "$seconds" --work "$WORK" \
        > "$WORK/$target.log" 2>&1
    grep -E "new finding|DONE|stat::number_of_executed_units|Done [0-9]+ runs" "$WORK/$target.log"
    ls "$WORK/$target/artifacts" 2>/dev/null | grep -v '\.txt$' | sed 's/^/   artifact: /'
done
