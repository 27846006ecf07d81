# Check tests. Each family has its own fragment so they can grow independently.
include tests/model.mk
include tests/trees.mk
include tests/calibration.mk
include tests/mpi.mk
include tests/validation.mk
include tests/bench.mk
