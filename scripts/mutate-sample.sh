#!/bin/sh
# The test command of a sampled mutation run (scripts/mutate.mjs --sample): runs the real test
# command ("$@") only for a mutant in the sample, and passes every other one at once. In sh, not
# Node, because it runs once per mutant, thousands of times, and a Node start costs 0.1-0.3 s.
#
# In the sample: a 32-bit integer hash of the mutant's id and the seed, modulo 10,000, below
# MUTATE_SAMPLE_BP (the sample in hundredths of a percent). scripts/mutate-sample.mjs computes
# the same hash to score the run, and checks first that the two agree.
#   MUTATE_LIST=N sh scripts/mutate-sample.sh   prints the ids below N in the sample.
in_sample() {
  h=$(( ($1 + MUTATE_SEED * 7919) & 0xffffffff ))
  h=$(( (((h >> 16) ^ h) * 0x45d9f3b) & 0xffffffff ))
  h=$(( (((h >> 16) ^ h) * 0x45d9f3b) & 0xffffffff ))
  h=$(( (h >> 16) ^ h ))
  [ $(( h % 10000 )) -lt "$MUTATE_SAMPLE_BP" ]
}

if [ -n "${MUTATE_LIST-}" ]; then
  i=0
  while [ "$i" -lt "$MUTATE_LIST" ]; do
    if in_sample "$i"; then echo "$i"; fi
    i=$((i + 1))
  done
  exit 0
fi

# The dry run (no active mutant) runs the tests for real: Stryker needs them to pass unmutated.
if [ -n "${__STRYKER_ACTIVE_MUTANT__-}" ] && ! in_sample "$__STRYKER_ACTIVE_MUTANT__"; then exit 0; fi
exec "$@"
