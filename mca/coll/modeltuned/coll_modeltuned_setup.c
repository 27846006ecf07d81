/*
 * What every process publishes in the modex at component open (inside MPI_Init, before its
 * exchange) and how a communicator's placement follows from it without communicating: where each
 * rank sits (node, package, NUMA, L3, core), its table's checksum, whether its node is
 * oversubscribed, and the algorithm lists and guard settings it started with.
 */
#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll_modeltuned.h"
#include MCA_COLL_MODELTUNED_RTE_H
#include "opal/mca/hwloc/base/base.h"
#include MCA_COLL_MODELTUNED_PMIX_H
#include "opal/util/proc.h"

static char *const published_key_names[MCA_COLL_MODELTUNED_PUBLISHED_KEYS] =
    {/* the modex macros take char * */
     "coll.modeltuned.table", "coll.modeltuned.oversubscribed", "coll.modeltuned.host",
     "coll.modeltuned.place", "coll.modeltuned.settings"};

static int logical_index_of(hwloc_topology_t topology, hwloc_obj_t covering, hwloc_obj_type_t type)
{
    if (NULL == covering)
        return -1;
    if (covering->type == type)
        return (int) covering->logical_index;
    hwloc_obj_t ancestor = hwloc_get_ancestor_obj_by_type(topology, type, covering);
    return NULL == ancestor ? -1 : (int) ancestor->logical_index;
}

/* The node's topology as far as a place needs it: Open MPI's, or one discovered here without what
 * a place never names (mca_coll_modeltuned_discovers_topology). NULL: none; *own: the caller
 * destroys it. */
static hwloc_topology_t place_topology(bool *own)
{
    *own = mca_coll_modeltuned_discovers_topology();
    if (!*own)
        return OPAL_SUCCESS == opal_hwloc_base_get_topology() ? opal_hwloc_topology : NULL;
    hwloc_topology_t topology;
    if (0 != hwloc_topology_init(&topology))
        return NULL;
#if HWLOC_API_VERSION >= 0x20000
    (void) hwloc_topology_set_all_types_filter(topology, HWLOC_TYPE_FILTER_KEEP_NONE);
    (void) hwloc_topology_set_type_filter(topology, HWLOC_OBJ_PACKAGE, HWLOC_TYPE_FILTER_KEEP_ALL);
    (void) hwloc_topology_set_type_filter(topology, HWLOC_OBJ_CORE, HWLOC_TYPE_FILTER_KEEP_ALL);
    (void) hwloc_topology_set_type_filter(topology, HWLOC_OBJ_L3CACHE, HWLOC_TYPE_FILTER_KEEP_ALL);
#endif
    if (0 != hwloc_topology_load(topology)) {
        hwloc_topology_destroy(topology);
        return NULL;
    }
    return topology;
}

/* Binding from Open MPI's mapping (honours hwloc_base_topo_file emulation, where nothing is
 * really bound) or, failing that, the actual binding; and the node's object counts. */
static void my_place(hwloc_topology_t topology, mt_place *place)
{
    place->package = place->numa = place->l3 = place->core = -1;
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (NULL == set)
        return;
    int got = -1;
    if (NULL != opal_process_info.cpuset && '\0' != opal_process_info.cpuset[0])
        got = hwloc_bitmap_list_sscanf(set, opal_process_info.cpuset);
    if (0 != got)
        got = hwloc_get_cpubind(topology, set, HWLOC_CPUBIND_PROCESS);
    if (0 == got && !hwloc_bitmap_iszero(set)) {
        hwloc_obj_t covering = hwloc_get_obj_covering_cpuset(topology, set);
        place->package = logical_index_of(topology, covering, HWLOC_OBJ_PACKAGE);
        place->l3 = logical_index_of(topology, covering, HWLOC_OBJ_L3CACHE);
        place->core = logical_index_of(topology, covering, HWLOC_OBJ_CORE);
        hwloc_obj_t numa = hwloc_get_next_obj_covering_cpuset_by_type(topology, set,
                                                                      HWLOC_OBJ_NUMANODE, NULL);
        place->numa = NULL == numa ? -1 : (int) numa->logical_index;
    }
    hwloc_bitmap_free(set);
}

/* A place packed in 64 bits: package, numa, l3, core + 1 in 16 bits each (0: unknown). */
static uint64_t pack_place(const mt_place *p)
{
    const int32_t v[4] = {p->package, p->numa, p->l3, p->core};
    uint64_t packed = 0;
    for (int i = 0; i < 4; ++i)
        packed |= (uint64_t) (v[i] < 0 || v[i] >= 0xffff ? 0 : v[i] + 1) << (16 * i);
    return packed;
}

void mca_coll_modeltuned_unpack_place(uint64_t packed, mt_place *p)
{
    int32_t v[4];
    for (int i = 0; i < 4; ++i)
        v[i] = (int32_t) ((packed >> (16 * i)) & 0xffff) - 1;
    *p = (mt_place){.node = -1, .package = v[0], .numa = v[1], .l3 = v[2], .core = v[3]};
}

uint64_t mca_coll_modeltuned_place_here(mca_coll_modeltuned_node_t *node)
{
    bool own = false;
    mt_place place = {.node = -1, .package = -1, .numa = -1, .l3 = -1, .core = -1};
    hwloc_topology_t topology = place_topology(&own);
    if (NULL == topology)
        return pack_place(&place);
    my_place(topology, &place);
    const hwloc_obj_type_t types[MCA_COLL_MODELTUNED_NODE_OBJECTS] = {HWLOC_OBJ_PACKAGE,
                                                                      HWLOC_OBJ_NUMANODE,
                                                                      HWLOC_OBJ_L3CACHE,
                                                                      HWLOC_OBJ_CORE, HWLOC_OBJ_PU};
    for (int i = 0; i < MCA_COLL_MODELTUNED_NODE_OBJECTS; ++i)
        node->objects[i] = hwloc_get_nbobjs_by_type(topology, types[i]);
    node->known = true;
    if (own)
        hwloc_topology_destroy(topology);
    return pack_place(&place);
}

int mca_coll_modeltuned_publish(const uint64_t values[MCA_COLL_MODELTUNED_PUBLISHED_KEYS])
{
    uint64_t all[MCA_COLL_MODELTUNED_PUBLISHED_KEYS];
    memcpy(all, values, sizeof all);
    all[MCA_COLL_MODELTUNED_PUBLISHED_HOST] = mca_coll_modeltuned_hash_string(
        opal_process_info.nodename);
    int rc = OPAL_SUCCESS;
    for (int k = 0; k < MCA_COLL_MODELTUNED_PUBLISHED_KEYS && OPAL_SUCCESS == rc; ++k)
        OPAL_MODEX_SEND_VALUE(rc, MCA_COLL_MODELTUNED_MODEX_GLOBAL, published_key_names[k], &all[k],
                              MCA_COLL_MODELTUNED_MODEX_UINT64);
    return rc;
}

/* What every rank of this job published, a row per vpid: value + 1 per key, 0 = not read yet,
 * UINT64_MAX = absent (the modex is read-only after MPI_Init). Allocated on first use. */
static uint64_t (*published_rows)[MCA_COLL_MODELTUNED_PUBLISHED_KEYS];
static uint32_t cached_procs;

/* The row of `name`, or NULL: another job's rank, or no memory. */
static uint64_t *cached_row(const opal_process_name_t *name)
{
    if (NULL == published_rows && ompi_process_info.num_procs > 0) {
        published_rows = calloc(ompi_process_info.num_procs, sizeof *published_rows);
        cached_procs = NULL != published_rows ? ompi_process_info.num_procs : 0;
    }
    return name->jobid == OMPI_PROC_MY_NAME->jobid && name->vpid < cached_procs
               ? published_rows[name->vpid]
               : NULL;
}

/* modeltuned's numbers that `name` published, from this process's copy of the modex: under 4.1
 * it holds every rank's data after MPI_Init's exchange; under 5.0, that of the ranks fetched
 * (fetch_published). Never waits. */
static void read_local(const opal_process_name_t *name, uint64_t values[], bool found[])
{
    for (int k = 0; k < MCA_COLL_MODELTUNED_PUBLISHED_KEYS; ++k) {
        uint64_t value = 0, *ptr = &value;
        int rc;
        OPAL_MODEX_RECV_VALUE_OPTIONAL(rc, published_key_names[k], name, &ptr,
                                       MCA_COLL_MODELTUNED_MODEX_UINT64);
        found[k] = OPAL_SUCCESS == rc && UINT64_MAX != value;
        values[k] = found[k] ? value : 0;
    }
}

#if OMPI_MAJOR_VERSION >= 5
/* 5.0's PMIx keeps the data of other nodes' ranks in the PMIx servers, and a get of one key brings
 * all that rank published into this process. A key never published (modeltuned not loaded on that
 * rank's node) is waited for until the timeout: IMMEDIATE and OPTIONAL, which would not wait, do
 * not find other nodes' data at all (openpmix 5). So the table key of every peer not read yet is
 * asked for at once, and the wait for absent ones is one timeout in all, not one per peer; a
 * present key arrives within a round trip, far below it. */
#    define MODEX_TIMEOUT_S 30

typedef struct fetch {
    volatile int32_t done;
    pmix_status_t status;
} fetch_t;

static void fetched(pmix_status_t status, pmix_value_t *kv, void *cbdata)
{
    if (NULL != kv) /* ours; the rank's data stays in this process's copy */
        PMIX_VALUE_RELEASE(kv);
    fetch_t *f = cbdata;
    f->status = status;
    __atomic_store_n(&f->done, 1, __ATOMIC_RELEASE);
}

/* Brings the published data of `procs` into this process; present[i] says whose exists. */
static void fetch_published(ompi_proc_t **procs, int n, bool present[])
{
    fetch_t *f = calloc(n, sizeof *f);
    pmix_info_t info;
    int timeout = MODEX_TIMEOUT_S;
    PMIX_INFO_LOAD(&info, PMIX_TIMEOUT, &timeout, PMIX_INT);
    for (int i = 0; i < n; ++i) {
        pmix_proc_t proc;
        OPAL_PMIX_CONVERT_NAME(&proc, &procs[i]->super.proc_name);
        if (NULL == f ||
            PMIX_SUCCESS != PMIx_Get_nb(&proc, published_key_names[0], &info, 1, fetched, &f[i])) {
            if (NULL != f)
                f[i] = (fetch_t){.done = 1, .status = PMIX_ERR_NOT_FOUND};
        }
    }
    for (int i = 0; i < n && NULL != f; ++i)
        while (!__atomic_load_n(&f[i].done, __ATOMIC_ACQUIRE))
            usleep(100);
    for (int i = 0; i < n; ++i)
        present[i] = NULL != f && PMIX_SUCCESS == f[i].status;
    PMIX_INFO_DESTRUCT(&info);
    free(f);
}

char *mca_coll_modeltuned_published_string(struct ompi_proc_t *proc, const char *key)
{
    uint8_t *bytes = NULL;
    size_t length = 0;
    int rc = OPAL_ERR_NOT_FOUND;
    mca_coll_modeltuned_read_published(&proc, 1);
    OPAL_MODEX_RECV_STRING_OPTIONAL(rc, key, &proc->super.proc_name, &bytes, &length);
    if (OPAL_SUCCESS == rc && NULL != bytes && length > 0 && '\0' == bytes[length - 1])
        return (char *) bytes;
    free(bytes);
    return NULL;
}
#else
static void fetch_published(ompi_proc_t **procs, int n, bool present[])
{
    (void) procs;
    for (int i = 0; i < n; ++i)
        present[i] = true; /* already here: read_local tells */
}

char *mca_coll_modeltuned_published_string(struct ompi_proc_t *proc, const char *key)
{
    uint8_t *bytes = NULL;
    size_t length = 0;
    int rc = OPAL_ERR_NOT_FOUND;
    OPAL_MODEX_RECV_STRING(rc, key, &proc->super.proc_name, &bytes, &length);
    if (OPAL_SUCCESS == rc && NULL != bytes && length > 0 && '\0' == bytes[length - 1])
        return (char *) bytes;
    free(bytes);
    return NULL;
}
#endif

void mca_coll_modeltuned_read_published(ompi_proc_t **procs, int n)
{
    bool to_read = false; /* the usual case, every rank read before: nothing to allocate */
    for (int i = 0; i < n && !to_read; ++i) {
        const uint64_t *row = cached_row(&procs[i]->super.proc_name);
        to_read = NULL != row && 0 == row[0];
    }
    if (!to_read)
        return;
    ompi_proc_t **todo = malloc(sizeof *todo * (n > 0 ? n : 1));
    bool *present = malloc(sizeof *present * (n > 0 ? n : 1));
    int m = 0;
    for (int i = 0; NULL != todo && i < n; ++i) {
        const uint64_t *row = cached_row(&procs[i]->super.proc_name);
        if (NULL != row && 0 == row[0])
            todo[m++] = procs[i];
    }
    if (NULL != todo && NULL != present && m > 0)
        fetch_published(todo, m, present);
    for (int i = 0; NULL != present && i < m; ++i) {
        uint64_t values[MCA_COLL_MODELTUNED_PUBLISHED_KEYS];
        bool found[MCA_COLL_MODELTUNED_PUBLISHED_KEYS] = {false};
        if (present[i])
            read_local(&todo[i]->super.proc_name, values, found);
        uint64_t *row = cached_row(&todo[i]->super.proc_name);
        for (int k = 0; k < MCA_COLL_MODELTUNED_PUBLISHED_KEYS; ++k)
            row[k] = found[k] ? values[k] + 1 : UINT64_MAX;
    }
    free(todo);
    free(present);
}

void mca_coll_modeltuned_published_all(struct ompi_proc_t *proc,
                                       uint64_t values[MCA_COLL_MODELTUNED_PUBLISHED_KEYS],
                                       bool found[MCA_COLL_MODELTUNED_PUBLISHED_KEYS])
{
    const opal_process_name_t *name = &proc->super.proc_name;
    const uint64_t *row = cached_row(name);
    if (NULL == row) { /* another job's rank, or no memory: read it alone */
        bool present = false;
        fetch_published(&proc, 1, &present);
        for (int k = 0; k < MCA_COLL_MODELTUNED_PUBLISHED_KEYS; ++k) {
            values[k] = 0;
            found[k] = false;
        }
        if (present)
            read_local(name, values, found);
        return;
    }
    if (0 == row[0])
        mca_coll_modeltuned_read_published(&proc, 1);
    for (int k = 0; k < MCA_COLL_MODELTUNED_PUBLISHED_KEYS; ++k) {
        found[k] = 0 != row[k] && UINT64_MAX != row[k];
        values[k] = found[k] ? row[k] - 1 : 0;
    }
}

/* From what the ranks published: no communication, and every rank reads the same values, so
 * every rank builds the same model. comm_query has checked that all published a table, the same
 * one, and the same start-up algorithm lists. */
int mca_coll_modeltuned_setup(mca_coll_modeltuned_module_t *m, struct ompi_communicator_t *comm)
{
    mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    const int size = ompi_comm_size(comm);
    char err[512];

    m->state = MCA_COLL_MODELTUNED_FALLBACK;
    /* On the stack for the usual sizes: a new communicator allocates nothing it need not. */
    mt_place places_on_stack[64];
    const bool small = size <= 64;
    mt_place *places = small ? places_on_stack : malloc(sizeof *places * size);
    if (NULL == places || OMPI_SUCCESS != mca_coll_modeltuned_peers_places(comm, places)) {
        if (!small)
            free(places);
        return OMPI_ERR_OUT_OF_RESOURCE; /* a rank out of memory at setup: see design.md */
    }
    /* Where han is below (5.0 across nodes), the model tells whether it runs its own algorithms
     * or hands calls to tuned (a node holding one rank each, coll_han_subcomms.c). */
    int han_fallback_ops = 0;
    for (int op = 0; op < MT_OPS; ++op)
        if (NULL != m->fallback[op] && 0 == strcmp(m->fallback[op], "han"))
            han_fallback_ops |= 1 << op;
    m->model = mt_comm_model_create(c->table, size, places, m->allowed, han_fallback_ops, err,
                                    sizeof err);
    if (!small)
        free(places);
    if (NULL == m->model) {
        opal_output_verbose(1, c->output,
                            "coll:modeltuned:setup cid=%d name=%s: %s; falling back to "
                            "the previous component",
                            mca_coll_modeltuned_cid(comm), comm->c_name, err);
        return OMPI_ERROR;
    }
    m->state = MCA_COLL_MODELTUNED_READY;
    if (c->verbose >= 10) {
        char channels[64];
        mt_comm_model_channels(m->model, channels, sizeof channels);
        opal_output(c->output,
                    "coll:modeltuned:setup cid=%d name=%s: placement of %d ranks from what "
                    "they published, channels=%s",
                    mca_coll_modeltuned_cid(comm), comm->c_name, size, channels);
    }
    return OMPI_SUCCESS;
}
