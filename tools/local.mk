# Command-line tools.

# modeltuned: the offline tool. tools/modeltuned.cpp is its main and commands.hpp the list of its
# subcommands; each subcommand is a folder whose local.mk adds its sources (fit, explain,
# export_rules, validate, ab, calibrate). The other programs are folders too (bench, churn,
# latency, overhead); lib holds what only the tools share.
bin_PROGRAMS += tools/modeltuned
tools_modeltuned_SOURCES = tools/modeltuned.cpp tools/commands.hpp
tools_modeltuned_CPPFLAGS = $(AM_CPPFLAGS) $(HWLOC_CFLAGS) \
	-DMODELTUNED_PKGDATADIR='"$(pkgdatadir)"' -DMODELTUNED_SRCDIR='"$(abs_top_srcdir)"' \
	-DMODELTUNED_SYSCONFDIR='"$(sysconfdir)"'
tools_modeltuned_LDADD = tools/lib/libmodeltuned_tools.la calib/libmodeltuned_calib.la model/libmodeltuned_model.la \
	common/libmodeltuned_common.la \
	$(FMT_LIBS) $(HWLOC_LIBS)
# modeltuned-emulate-nodes: several emulated nodes on one machine (hostfile + rsh agent in UTS
# namespaces), for the multi-node tests and for users trying multi-node behaviour on a laptop.
dist_bin_SCRIPTS = tools/modeltuned-emulate-nodes

include tools/lib/local.mk
include tools/fit/local.mk
include tools/explain/local.mk
include tools/export_rules/local.mk
include tools/validate/local.mk
include tools/overhead/local.mk
include tools/bench/local.mk
include tools/churn/local.mk
include tools/ab/local.mk
include tools/calibrate/local.mk
include tools/latency/local.mk
