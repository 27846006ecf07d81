# The Open MPI component: thin C glue over the model library.
mca_LTLIBRARIES = mca/coll/modeltuned/mca_coll_modeltuned.la
# The sources, once: tools/local.mk links them into the decision benchmark too.
MODELTUNED_COMPONENT_SOURCES = \
	mca/coll/modeltuned/coll_modeltuned.h \
	mca/coll/modeltuned/coll_modeltuned_call.h \
	mca/coll/modeltuned/coll_modeltuned_collectives.h \
	mca/coll/modeltuned/coll_modeltuned_compat.h \
	mca/coll/modeltuned/coll_modeltuned_component.c \
	mca/coll/modeltuned/coll_modeltuned_collectives.c \
	mca/coll/modeltuned/coll_modeltuned_help.c \
	mca/coll/modeltuned/coll_modeltuned_table.c \
	mca/coll/modeltuned/coll_modeltuned_counters.c \
	mca/coll/modeltuned/coll_modeltuned_module.c \
	mca/coll/modeltuned/coll_modeltuned_setup.c \
	mca/coll/modeltuned/coll_modeltuned_peers.c \
	mca/coll/modeltuned/coll_modeltuned_tuned.c \
	mca/coll/modeltuned/coll_modeltuned_list.c \
	mca/coll/modeltuned/coll_modeltuned_decide.c \
	mca/coll/modeltuned/coll_modeltuned_guard.c \
	mca/coll/modeltuned/coll_modeltuned_record.c \
	mca/coll/modeltuned/coll_modeltuned_dispatch.c \
	mca/coll/modeltuned/coll_modeltuned_foreign.c \
	mca/coll/modeltuned/coll_modeltuned_bcast.c \
	mca/coll/modeltuned/coll_modeltuned_reduce.c \
	mca/coll/modeltuned/coll_modeltuned_allreduce.c \
	mca/coll/modeltuned/coll_modeltuned_barrier.c \
	mca/coll/modeltuned/coll_modeltuned_allgather.c \
	mca/coll/modeltuned/coll_modeltuned_alltoall.c \
	mca/coll/modeltuned/coll_modeltuned_view.c
mca_coll_modeltuned_mca_coll_modeltuned_la_SOURCES = $(MODELTUNED_COMPONENT_SOURCES)
# A C++ file forces libtool to link with g++ (the model library needs libstdc++).
nodist_EXTRA_mca_coll_modeltuned_mca_coll_modeltuned_la_SOURCES = mca/coll/modeltuned/force_cxx_link.cxx
mca_coll_modeltuned_mca_coll_modeltuned_la_CPPFLAGS = $(AM_CPPFLAGS) $(OMPI_CPPFLAGS) $(HWLOC_CFLAGS) -DMODELTUNED_SYSCONFDIR='"$(sysconfdir)"' \
	-DMODELTUNED_PKGDATADIR='"$(pkgdatadir)"'
mca_coll_modeltuned_mca_coll_modeltuned_la_LDFLAGS = -module -avoid-version -shared -Wl,--no-undefined -Wl,--version-script=$(srcdir)/mca/coll/modeltuned/exports.map
EXTRA_DIST += mca/coll/modeltuned/exports.map
mca_coll_modeltuned_mca_coll_modeltuned_la_DEPENDENCIES = model/libmodeltuned_model.la mca/coll/modeltuned/exports.map
mca_coll_modeltuned_mca_coll_modeltuned_la_LIBADD = model/libmodeltuned_model.la $(OMPI_LIBS) $(HWLOC_LIBS) $(SANITIZER_LIBS)

# Its messages (opal_show_help topics). Installed in $(pkgdatadir); the component also looks next to
# the .so it was loaded from, where the build tree links the file (coll_modeltuned_component.c).
dist_pkgdata_DATA += mca/coll/modeltuned/help-coll-modeltuned.txt

# The build tree is usable without installing: point OMPI_MCA_mca_base_component_path at
# $(top_builddir)/mca-components (see README).
all-local: mca-components/mca_coll_modeltuned.so mca-components/help-coll-modeltuned.txt
mca-components/mca_coll_modeltuned.so: mca/coll/modeltuned/mca_coll_modeltuned.la
	@mkdir -p mca-components
	@ln -sf ../mca/coll/modeltuned/.libs/mca_coll_modeltuned.so $@
mca-components/help-coll-modeltuned.txt: $(srcdir)/mca/coll/modeltuned/help-coll-modeltuned.txt
	@mkdir -p mca-components
	@ln -sf $(abs_top_srcdir)/mca/coll/modeltuned/help-coll-modeltuned.txt $@
clean-local: clean-mca-components
clean-mca-components:
	rm -rf mca-components

# Open MPI loads the .so; its own components ship no libtool archive next to it either.
install-data-hook: remove-component-la
remove-component-la:
	rm -f $(DESTDIR)$(mcadir)/mca_coll_modeltuned.la
uninstall-hook:
	rm -f $(DESTDIR)$(mcadir)/mca_coll_modeltuned.so
	-rmdir $(DESTDIR)$(pkgdatadir) 2>/dev/null
