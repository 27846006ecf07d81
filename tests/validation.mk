# Regression guard of the model on the ORFEO EPYC measurements: a quick
# `modeltuned validate` whose figures must stay at the levels stated in the script.
TESTS += tests/validation_guard.sh
EXTRA_DIST += tests/validation_guard.sh
