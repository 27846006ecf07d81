# Man pages, one per installed tool, from its --help (help2man); modeltuned's also carries each
# subcommand's --help. Built with the tools where configure found help2man (scripts/deps installs
# it), except in sanitizer builds, whose tools are not run for their help.
if BUILD_MANS
man1_MANS = man/modeltuned.1 man/modeltuned-calibrate.1 man/modeltuned-bench.1 man/modeltuned-latency.1 \
	man/modeltuned-emulate-nodes.1
CLEANFILES += $(man1_MANS) man/modeltuned-subcommands.h2m
HELP2MAN_RUN = $(HELP2MAN) --no-info --no-discard-stderr --version-string='$(PACKAGE_VERSION)' \
	--source='modeltuned $(PACKAGE_VERSION)' --manual='modeltuned'

man/modeltuned-subcommands.h2m: tools/modeltuned$(EXEEXT) $(srcdir)/man/subcommands.sh
	@$(MKDIR_P) man
	$(AM_V_GEN)$(SHELL) $(srcdir)/man/subcommands.sh tools/modeltuned$(EXEEXT) fit explain export-rules validate ab calibrate > $@
man/modeltuned.1: tools/modeltuned$(EXEEXT) man/modeltuned-subcommands.h2m
	$(AM_V_GEN)$(HELP2MAN_RUN) --name='model-based choice of MPI collective algorithms: tables, explain, tuned rules, validate, A/B, calibration runs' \
	  --include=man/modeltuned-subcommands.h2m -o $@ tools/modeltuned$(EXEEXT)
man/modeltuned-calibrate.1: calib/modeltuned-calibrate$(EXEEXT)
	@$(MKDIR_P) man
	$(AM_V_GEN)$(HELP2MAN_RUN) --name='measure this machine and write a modeltuned calibration table' \
	  -o $@ calib/modeltuned-calibrate$(EXEEXT)
man/modeltuned-bench.1: tools/bench/modeltuned-bench$(EXEEXT)
	@$(MKDIR_P) man
	$(AM_V_GEN)$(HELP2MAN_RUN) --name="Open MPI's default against modeltuned and every algorithm, in one job" \
	  -o $@ tools/bench/modeltuned-bench$(EXEEXT)
man/modeltuned-latency.1: tools/latency/modeltuned-latency$(EXEEXT)
	@$(MKDIR_P) man
	$(AM_V_GEN)$(HELP2MAN_RUN) --name='latency of MPI_Bcast, MPI_Reduce, MPI_Allreduce, MPI_Barrier, MPI_Allgather and MPI_Alltoall, for the A/B across jobs' \
	  -o $@ tools/latency/modeltuned-latency$(EXEEXT)
man/modeltuned-emulate-nodes.1: $(srcdir)/tools/modeltuned-emulate-nodes
	@$(MKDIR_P) man
	$(AM_V_GEN)$(HELP2MAN_RUN) --name='run mpirun across emulated nodes on one machine' \
	  -o $@ $(srcdir)/tools/modeltuned-emulate-nodes
endif
EXTRA_DIST += man/subcommands.sh
