# results/: one command per published result, and the raw results they wrote, per date and
# machine (results/README.md). make check runs each command once, in its smoke mode or dry run.
EXTRA_DIST += results/README.md results/lib.sh results/tabulate.py results/ab results/guard-overhead \
	results/orfeo-validation results/busy-machine results/ci-time
TESTS += tests/results_commands.sh
EXTRA_DIST += tests/results_commands.sh
