/*
 * The placement exchange, once per communicator on its first bcast or reduce: where every rank
 * sits and what it may run; from the gathered map each rank builds the same model.
 */
#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include "coll_modeltuned.h"
#include "opal/mca/hwloc/base/base.h"
#include "opal/util/proc.h"

/* What each rank contributes, exchanged as MPI_INTs (all fields are 32 bits). The masks make every
 * rank fall back together if their algorithm parameters (writable through MPI_T) or the functions
 * their Open MPI library resolved differ; that every rank has the same table was settled by
 * comm_query. */
typedef struct exchange_t {
    uint32_t host_hash[2];             /* FNV-1a of the node name: low, high 32 bits */
    int32_t package, numa, l3, core;   /* hwloc logical indices of the objects containing the
                                          binding; -1 = spans several or unknown */
    uint32_t allowed[2];               /* [op] algorithms this rank may run */
} exchange_t;
#define EXCHANGE_INTS ((int) (sizeof(exchange_t) / sizeof(int32_t)))

static int logical_index_of(hwloc_obj_t covering, hwloc_obj_type_t type)
{
    if (NULL == covering) return -1;
    if (covering->type == type) return (int) covering->logical_index;
    hwloc_obj_t ancestor = hwloc_get_ancestor_obj_by_type(opal_hwloc_topology, type, covering);
    return NULL == ancestor ? -1 : (int) ancestor->logical_index;
}

/* Binding from Open MPI's mapping (honours hwloc_base_topo_file emulation, where nothing is
 * really bound) or, failing that, the actual binding. */
static void my_place(exchange_t *place)
{
    place->package = place->numa = place->l3 = place->core = -1;
    if (OPAL_SUCCESS != opal_hwloc_base_get_topology() || NULL == opal_hwloc_topology) return;

    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (NULL == set) return;
    int got = -1;
    if (NULL != opal_process_info.cpuset && '\0' != opal_process_info.cpuset[0])
        got = hwloc_bitmap_list_sscanf(set, opal_process_info.cpuset);
    if (0 != got) got = hwloc_get_cpubind(opal_hwloc_topology, set, HWLOC_CPUBIND_PROCESS);
    if (0 == got && !hwloc_bitmap_iszero(set)) {
        hwloc_obj_t covering = hwloc_get_obj_covering_cpuset(opal_hwloc_topology, set);
        place->package = logical_index_of(covering, HWLOC_OBJ_PACKAGE);
        place->l3 = logical_index_of(covering, HWLOC_OBJ_L3CACHE);
        place->core = logical_index_of(covering, HWLOC_OBJ_CORE);
        hwloc_obj_t numa = hwloc_get_next_obj_covering_cpuset_by_type(opal_hwloc_topology, set,
                                                                      HWLOC_OBJ_NUMANODE, NULL);
        place->numa = NULL == numa ? -1 : (int) numa->logical_index;
    }
    hwloc_bitmap_free(set);
}

int mca_coll_modeltuned_setup(mca_coll_modeltuned_module_t *m, struct ompi_communicator_t *comm)
{
    mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    const int size = ompi_comm_size(comm);
    exchange_t mine;
    char err[512];
    int rc;

    /* The allgather below may itself call bcast (ours): it must fall back, not recurse. */
    m->state = MCA_COLL_MODELTUNED_FALLBACK;

    my_place(&mine);
    uint64_t host = 1469598103934665603ULL;  /* FNV-1a of the node name */
    for (const char *s = opal_process_info.nodename; NULL != s && *s; ++s)
        host = (host ^ (unsigned char) *s) * 1099511628211ULL;
    mine.host_hash[0] = (uint32_t) host;
    mine.host_hash[1] = (uint32_t) (host >> 32);
    memcpy(mine.allowed, m->allowed, sizeof mine.allowed);

    exchange_t *all = malloc(sizeof *all * size);
    mt_place *places = malloc(sizeof *places * size);
    rc = NULL == all || NULL == places ? OMPI_ERR_OUT_OF_RESOURCE  /* every rank may not agree: see design.md */
         : comm->c_coll->coll_allgather(&mine, EXCHANGE_INTS, MPI_INT, all, EXCHANGE_INTS, MPI_INT, comm,
                                        comm->c_coll->coll_allgather_module);
    if (OMPI_SUCCESS != rc) goto out;

    /* From here on every rank computes from the same gathered data: same outcome everywhere. */
    for (int r = 0; r < size; ++r) {
        const exchange_t *e = &all[r];
        if (0 != memcmp(e->allowed, all[0].allowed, sizeof e->allowed)) {
            mca_coll_modeltuned_show_help(0 == ompi_comm_rank(comm), "algorithm-lists-differ", r, comm->c_name,
                                          ompi_comm_get_cid(comm));
            rc = OMPI_ERROR;
            goto out;
        }
        /* Node id: the first rank on the same host. */
        int node = r;
        for (int q = 0; q < r; ++q)
            if (0 == memcmp(all[q].host_hash, e->host_hash, sizeof e->host_hash)) { node = q; break; }
        places[r] = (mt_place){ .node = node, .package = e->package, .numa = e->numa, .l3 = e->l3, .core = e->core };
    }
    m->model = mt_comm_model_create(c->table, size, places, m->allowed[MT_OP_BCAST],
                                    m->allowed[MT_OP_REDUCE], err, sizeof err);
    if (NULL == m->model) {
        opal_output_verbose(1, c->output, "coll:modeltuned:setup cid=%d name=%s: %s; falling back to "
                            "the previous component", ompi_comm_get_cid(comm), comm->c_name, err);
        rc = OMPI_ERROR;
        goto out;
    }
    m->state = MCA_COLL_MODELTUNED_READY;
    if (c->verbose >= 10) {
        char channels[64];
        mt_comm_model_channels(m->model, channels, sizeof channels);
        opal_output(c->output, "coll:modeltuned:setup cid=%d name=%s: placement of %d ranks exchanged, "
                    "channels=%s", ompi_comm_get_cid(comm), comm->c_name, size, channels);
    }
out:
    free(all);
    free(places);
    return rc;
}
