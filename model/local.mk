# The model library: pure C++20, no MPI; the component links it, so what only the tools use lives
# in tools/lib. Layers: topology -> calibration -> cost -> schedule (trees, rounds) -> simulate (the
# trees' evaluation) -> collectives (one family per collective: its schedules, simulations,
# registry entries and fixed rule) -> registry -> select, and a C API for the component.
noinst_LTLIBRARIES += model/libmodeltuned_model.la
model_libmodeltuned_model_la_SOURCES = \
	model/topology/placement.hpp model/topology/placement.cpp \
	model/calibration/table.hpp model/calibration/table.cpp model/calibration/table_write.cpp \
	model/calibration/contention.hpp model/calibration/contention.cpp \
	model/cost/channel_cost.hpp model/cost/channel_cost.cpp \
	model/schedule/ompi_version.hpp model/schedule/ompi_version.cpp \
	model/schedule/ompi_trees.hpp model/schedule/ompi_trees.cpp \
	model/schedule/rounds.hpp model/schedule/rounds.cpp \
	model/simulate/call.hpp model/simulate/evaluation.hpp model/simulate/evaluation.cpp \
	model/simulate/tree_evaluation.hpp model/simulate/tree_evaluation.cpp \
	model/collectives/list.h model/collectives/plan.hpp model/collectives/family.hpp model/collectives/families.cpp \
	model/collectives/fixed_rule.hpp model/collectives/components.cpp model/collectives/tree_specs.hpp model/collectives/tree_specs.cpp \
	model/collectives/bcast/bcast.cpp \
	model/collectives/bcast/split_bintree.hpp model/collectives/bcast/split_bintree.cpp \
	model/collectives/bcast/scatter_allgather.hpp model/collectives/bcast/scatter_allgather.cpp \
	model/collectives/reduce/reduce.cpp \
	model/collectives/reduce/rabenseifner.hpp model/collectives/reduce/rabenseifner.cpp \
	model/collectives/allreduce/allreduce.cpp \
	model/collectives/allreduce/schedule.hpp model/collectives/allreduce/schedule.cpp \
	model/collectives/allreduce/simulate.hpp model/collectives/allreduce/simulate.cpp \
	model/collectives/barrier/barrier.cpp \
	model/collectives/barrier/schedule.hpp model/collectives/barrier/schedule.cpp \
	model/collectives/barrier/simulate.hpp model/collectives/barrier/simulate.cpp \
	model/collectives/allgather/allgather.cpp \
	model/collectives/allgather/schedule.hpp model/collectives/allgather/schedule.cpp \
	model/collectives/allgather/simulate.hpp model/collectives/allgather/simulate.cpp \
	model/collectives/alltoall/alltoall.cpp \
	model/collectives/alltoall/schedule.hpp model/collectives/alltoall/schedule.cpp \
	model/collectives/alltoall/simulate.hpp model/collectives/alltoall/simulate.cpp \
	model/registry/registry.hpp model/registry/registry.cpp \
	model/registry/predict.hpp model/registry/predict.cpp \
	model/select/selector.hpp model/select/selector.cpp \
	model/select/ompi_fixed.hpp model/select/ompi_fixed.cpp \
	model/select/margin.hpp model/select/margin.cpp \
	model/select/decision_json.hpp model/select/decision_json.cpp \
	model/capi/modeltuned_model.h model/capi/capi_internal.hpp model/capi/capi.cpp model/capi/table_info.cpp
model_libmodeltuned_model_la_CXXFLAGS = $(AM_CXXFLAGS) -fPIC $(FMT_CFLAGS)
model_libmodeltuned_model_la_LIBADD = $(FMT_LIBS)
