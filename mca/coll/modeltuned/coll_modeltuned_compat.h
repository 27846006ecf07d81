/*
 * What differs between the Open MPI release lines the component builds against (4.1.x, 5.0.x and
 * 6.0.x), all in one place. configure picks the line (OMPI_SERIES); here it is read from mpi.h's
 * OMPI_MAJOR_VERSION, which is the same thing. Nothing else in the component tests the version.
 *
 * What did not change, checked in 5.0.7's sources: the bcast and reduce ompi_coll_base_*
 * signatures (coll_base_functions.h), the module's field names (enable, disable, coll_bcast,
 * coll_reduce, base_data; 5.0 adds persistent-collective and agreement slots, left NULL by the
 * constructor), comm_select/unselect (each slot's module disabled once, then released), and the
 * point where components are opened: before the modex fence in both, so what open publishes is
 * seen by every rank at comm_query.
 */
#ifndef MCA_COLL_MODELTUNED_COMPAT_H
#define MCA_COLL_MODELTUNED_COMPAT_H

#include "ompi_config.h"

#include <stdbool.h>

#include "ompi/mca/coll/coll.h"
#include "opal/mca/base/mca_base_var.h"
#include "opal/mca/hwloc/base/base.h"
#if OMPI_MAJOR_VERSION >= 5
#    include "ompi/runtime/params.h"
#endif

#if OMPI_MAJOR_VERSION == 4 && OMPI_MINOR_VERSION == 1
#    define MCA_COLL_MODELTUNED_OMPI_SERIES "4.1"
/* The coll framework's component interface: 2.0.0 in 4.1, 2.4.0 in 5.0. */
typedef mca_coll_base_component_2_0_0_t mca_coll_modeltuned_base_component_t;
#    define MCA_COLL_MODELTUNED_BASE_VERSION MCA_COLL_BASE_VERSION_2_0_0
/* The runtime layer: ORTE behind ompi/mca/rte in 4.1, PMIx directly in 5.0. */
#    define MCA_COLL_MODELTUNED_RTE_H  "ompi/mca/rte/rte.h"
#    define MCA_COLL_MODELTUNED_PMIX_H "opal/mca/pmix/pmix.h"
/* The modex macros take OPAL's scope and type constants in 4.1 and PMIx's in 5.0. */
#    define MCA_COLL_MODELTUNED_MODEX_GLOBAL OPAL_PMIX_GLOBAL
#    define MCA_COLL_MODELTUNED_MODEX_UINT64 OPAL_UINT64
/* How the component structure is exported, and a communicator's id for messages (5.0 has local
 * and extended ids; the local one is what 4.1 called the cid). */
#    define MCA_COLL_MODELTUNED_DECLSPEC  OMPI_MODULE_DECLSPEC
#    define mca_coll_modeltuned_cid(comm) ((int) ompi_comm_get_cid(comm))
/* Where the communicator sits in Open MPI's table of them, which finalize walks in order. */
#    define mca_coll_modeltuned_comm_index(comm) ((comm)->c_contextid)
/* A dup carrying only `info` (6.0 asks whether the parent's info comes too). */
#    define mca_coll_modeltuned_dup_with_info(comm, info, newcomm) \
        ompi_comm_dup_with_info(comm, info, newcomm)
/* A collective's element count: int up to 5.0, size_t from 6.0 on (MPI 4's large counts). */
typedef int mca_coll_modeltuned_count_t;
/* Open MPI copies a module's functions into the communicator after enable (until 6.0). */
#    define MCA_COLL_MODELTUNED_MODULE_INSTALLS 0
#elif (OMPI_MAJOR_VERSION == 5 || OMPI_MAJOR_VERSION == 6) && OMPI_MINOR_VERSION == 0
/* From 5.0 on: PRRTE and PMIx, local and extended communicator ids. */
#    define MCA_COLL_MODELTUNED_RTE_H            "ompi/runtime/ompi_rte.h"
#    define MCA_COLL_MODELTUNED_PMIX_H           "opal/mca/pmix/pmix-internal.h"
#    define MCA_COLL_MODELTUNED_MODEX_GLOBAL     PMIX_GLOBAL
#    define MCA_COLL_MODELTUNED_MODEX_UINT64     PMIX_UINT64
#    define MCA_COLL_MODELTUNED_DECLSPEC         OMPI_DECLSPEC
#    define mca_coll_modeltuned_cid(comm)        ((int) ompi_comm_get_local_cid(comm))
#    define mca_coll_modeltuned_comm_index(comm) ((comm)->c_index)
#    if OMPI_MAJOR_VERSION == 5
#        define MCA_COLL_MODELTUNED_OMPI_SERIES     "5.0"
typedef mca_coll_base_component_2_4_0_t mca_coll_modeltuned_base_component_t;
#        define MCA_COLL_MODELTUNED_BASE_VERSION    MCA_COLL_BASE_VERSION_2_4_0
typedef int mca_coll_modeltuned_count_t;
#        define MCA_COLL_MODELTUNED_MODULE_INSTALLS 0
#        define mca_coll_modeltuned_dup_with_info(comm, info, newcomm) \
            ompi_comm_dup_with_info(comm, info, newcomm)
#    else
/* 6.0: the coll interface 3.0.0, and size_t counts in every collective and ompi_coll_base_*. */
#        define MCA_COLL_MODELTUNED_OMPI_SERIES     "6.0"
typedef mca_coll_base_component_3_0_0_t mca_coll_modeltuned_base_component_t;
#        define MCA_COLL_MODELTUNED_BASE_VERSION    MCA_COLL_BASE_VERSION_3_0_0
typedef size_t mca_coll_modeltuned_count_t;
/* A module puts its functions into the communicator itself at enable (coll_base_comm_select.c
 * installs none), and takes them out at disable. */
#        define MCA_COLL_MODELTUNED_MODULE_INSTALLS 1
#        define mca_coll_modeltuned_dup_with_info(comm, info, newcomm) \
            ompi_comm_dup_with_info(comm, info, newcomm, false)
#    endif
#else
#    error "modeltuned builds against Open MPI 4.1.x, 5.0.x or 6.0.x only (configure checks this)"
#endif

/* Whether Open MPI runs this process on an oversubscribed node (more ranks than slots). 4.1's
 * mpirun sets the MCA variable mpi_oversubscribe on such processes; 5.0 has no such variable and
 * sets ompi_mpi_oversubscribed from PMIx's PMIX_NODE_OVERSUBSCRIBED (ompi_rte_init, which runs
 * before the components are opened). */
static inline bool mca_coll_modeltuned_node_oversubscribed(void)
{
#if OMPI_MAJOR_VERSION >= 5
    return ompi_mpi_oversubscribed;
#else
    const void *value = NULL;
    const int index = mca_base_var_find("ompi", "mpi", NULL, "oversubscribe");
    return index >= 0 && OPAL_SUCCESS == mca_base_var_get_value(index, &value, NULL, NULL) &&
           NULL != value && *(const bool *) value;
#endif
}

/* Whether this process finds where it sits by discovering its node itself (no I/O devices, no
 * caches but L3), rather than through Open MPI's topology. Under 4.1, Open MPI discovers the whole
 * node, PCI devices included (about 15 ms of MPI_Init on the 2-core VM), unless it already has the
 * topology or reads it from a file (hwloc_base_topo_file, the emulated topologies); 5.0 gets it
 * from PMIx, the emulated one under PRRTE's hwloc_use_topo_file too. */
static inline bool mca_coll_modeltuned_discovers_topology(void)
{
#if OMPI_MAJOR_VERSION >= 5
    return false;
#else
    return NULL == opal_hwloc_topology && NULL == opal_hwloc_base_topo_file;
#endif
}

#endif /* MCA_COLL_MODELTUNED_COMPAT_H */
