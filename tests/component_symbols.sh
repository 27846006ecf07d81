#!/bin/sh
# The component carries no tool-only code: no symbol of mca_coll_modeltuned.so may name emulated
# placements, validation, the stage-sum variant or reports (those live in tools/lib, which the
# component does not link). Case-insensitive, demangled, local symbols included.
so="${MODELTUNED_COMPONENT:-mca/coll/modeltuned/.libs/mca_coll_modeltuned.so}"
if [ ! -f "$so" ]; then echo "FAIL: $so not built"; exit 1; fi
symbols=$(nm -C --defined-only "$so") || { echo "FAIL: nm -C --defined-only $so failed"; exit 1; }
# The model library must be there to be checked at all (a stripped .so would pass vacuously).
if ! printf '%s\n' "$symbols" | grep -q 'modeltuned::Selector::decide'; then
  echo "FAIL: $so has no symbol of the model library (stripped?)"; exit 1
fi
tool_only=$(printf '%s\n' "$symbols" | grep -i -E 'emulate|validate|stage_sum|report')
if [ -n "$tool_only" ]; then
  echo "FAIL: tool-only code in $so:"; printf '%s\n' "$tool_only"; exit 1
fi
echo "$so: $(printf '%s\n' "$symbols" | wc -l) symbols, none tool-only"
