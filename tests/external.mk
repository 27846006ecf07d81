# Open MPI's own MPI test suite (github.com/open-mpi/mpi-test-suite, BSD licence; what was taken
# and changed: tests/external/README.md) as a client nobody here wrote: its collective tests over
# every communicator type it makes, intercommunicators included, under modeltuned and under
# plain Open MPI (tests/external_suite.sh). Built with these rules rather than its configure; its
# config.h is ours, beside its sources (so found before the build tree's). Third-party code: its
# warnings are not ours.
MTS = tests/external/mpi-test-suite
check_PROGRAMS += tests/external/mpi_test_suite
tests_external_mpi_test_suite_SOURCES = \
	$(MTS)/cmdline.c $(MTS)/coll/tst_coll_allgather.c $(MTS)/coll/tst_coll_allgather_in_place.c \
	$(MTS)/coll/tst_coll_allreduce.c $(MTS)/coll/tst_coll_allreduce_in_place.c \
	$(MTS)/coll/tst_coll_allreduce_max.c $(MTS)/coll/tst_coll_allreduce_min.c \
	$(MTS)/coll/tst_coll_allreduce_quadsum.c $(MTS)/coll/tst_coll_allreduce_sum.c \
	$(MTS)/coll/tst_coll_alltoall.c $(MTS)/coll/tst_coll_bcast.c $(MTS)/coll/tst_coll_gather.c \
	$(MTS)/coll/tst_coll_reduce_in_place_max.c $(MTS)/coll/tst_coll_reduce_in_place_min.c \
	$(MTS)/coll/tst_coll_reduce_max.c $(MTS)/coll/tst_coll_reduce_min.c \
	$(MTS)/coll/tst_coll_scan_sum.c $(MTS)/coll/tst_coll_scatter.c $(MTS)/coll/tst_coll_scatterv.c \
	$(MTS)/coll/tst_coll_scatterv_stride.c $(MTS)/dynamic/tst_comm_spawn.c \
	$(MTS)/dynamic/tst_comm_spawn_multiple.c $(MTS)/dynamic/tst_establish_communication.c \
$(MTS)/env/tst_env_get_version.c \
	$(MTS)/env/tst_env_request_null.c $(MTS)/env/tst_env_status_check.c $(MTS)/env/tst_env_type_dup.c \
	$(MTS)/mpi_test_suite.c $(MTS)/p2p/tst_p2p_alltoall.c $(MTS)/p2p/tst_p2p_alltoall_graph.c \
	$(MTS)/p2p/tst_p2p_alltoall_irsend.c $(MTS)/p2p/tst_p2p_alltoall_issend.c \
	$(MTS)/p2p/tst_p2p_alltoall_persistent.c $(MTS)/p2p/tst_p2p_alltoall_probe_anysource.c \
	$(MTS)/p2p/tst_p2p_alltoall_sendrecv.c $(MTS)/p2p/tst_p2p_alltoall_xisend.c \
	$(MTS)/p2p/tst_p2p_direct_partner_intercomm.c $(MTS)/p2p/tst_p2p_many_to_one.c \
	$(MTS)/p2p/tst_p2p_many_to_one_iprobe_anysource.c $(MTS)/p2p/tst_p2p_many_to_one_isend_cancel.c \
	$(MTS)/p2p/tst_p2p_many_to_one_probe_anysource.c $(MTS)/p2p/tst_p2p_simple_ring.c \
	$(MTS)/p2p/tst_p2p_simple_ring_bottom.c $(MTS)/p2p/tst_p2p_simple_ring_bsend.c \
	$(MTS)/p2p/tst_p2p_simple_ring_ibsend.c $(MTS)/p2p/tst_p2p_simple_ring_irsend.c \
	$(MTS)/p2p/tst_p2p_simple_ring_isend.c $(MTS)/p2p/tst_p2p_simple_ring_issend.c \
	$(MTS)/p2p/tst_p2p_simple_ring_pack.c $(MTS)/p2p/tst_p2p_simple_ring_persistent.c \
	$(MTS)/p2p/tst_p2p_simple_ring_rsend.c $(MTS)/p2p/tst_p2p_simple_ring_sendrecv.c \
	$(MTS)/p2p/tst_p2p_simple_ring_shift.c $(MTS)/p2p/tst_p2p_simple_ring_ssend.c \
	$(MTS)/p2p/tst_p2p_simple_ring_xsend.c \
	$(MTS)/threaded/tst_threaded_comm_dup.c $(MTS)/threaded/tst_threaded_ring.c \
	$(MTS)/threaded/tst_threaded_ring_bsend.c $(MTS)/threaded/tst_threaded_ring_isend.c \
	$(MTS)/threaded/tst_threaded_ring_persistent.c $(MTS)/tst_comm.c $(MTS)/tst_file.c \
	$(MTS)/tst_output.c $(MTS)/tst_tests.c $(MTS)/tst_threads.c $(MTS)/tst_types.c $(MTS)/cmdline.h \
	$(MTS)/compile_info.h $(MTS)/mpi_test_suite.h $(MTS)/tst_comm.h $(MTS)/tst_output.h \
	$(MTS)/tst_threads.h
tests_external_mpi_test_suite_CPPFLAGS = -I$(srcdir)/$(MTS) $(OMPI_CPPFLAGS)
tests_external_mpi_test_suite_CFLAGS = -O1 -w
tests_external_mpi_test_suite_LDADD = $(OMPI_LIBS) -lpthread -lm
EXTRA_DIST += $(MTS)/LICENSE $(MTS)/README.md $(MTS)/cmdline.ggo tests/external/README.md $(MTS)/config.h
TESTS += tests/external_suite.sh
EXTRA_DIST += tests/external_suite.sh
EXTRA_tests_external_mpi_test_suite_DEPENDENCIES = mca-components/mca_coll_modeltuned.so
