/*
 * What every process publishes in the modex at component open (inside MPI_Init, before its
 * exchange) and how a communicator's placement follows from it without communicating: where each
 * rank sits (node, package, NUMA, L3, core), its table's checksum, whether its node is
 * oversubscribed, and the algorithm lists it started with.
 */
#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include "coll_modeltuned.h"
#include MCA_COLL_MODELTUNED_RTE_H
#include "opal/mca/hwloc/base/base.h"
#include MCA_COLL_MODELTUNED_PMIX_H
#include "opal/util/proc.h"

static char *const published_key_names[MCA_COLL_MODELTUNED_PUBLISHED_KEYS] =
    {/* the modex macros take char * */
     "coll.modeltuned.table", "coll.modeltuned.oversubscribed", "coll.modeltuned.host",
     "coll.modeltuned.place", "coll.modeltuned.lists"};

static int logical_index_of(hwloc_obj_t covering, hwloc_obj_type_t type)
{
    if (NULL == covering)
        return -1;
    if (covering->type == type)
        return (int) covering->logical_index;
    hwloc_obj_t ancestor = hwloc_get_ancestor_obj_by_type(opal_hwloc_topology, type, covering);
    return NULL == ancestor ? -1 : (int) ancestor->logical_index;
}

/* Binding from Open MPI's mapping (honours hwloc_base_topo_file emulation, where nothing is
 * really bound) or, failing that, the actual binding. */
static void my_place(mt_place *place)
{
    place->package = place->numa = place->l3 = place->core = -1;
    if (OPAL_SUCCESS != opal_hwloc_base_get_topology() || NULL == opal_hwloc_topology)
        return;

    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    if (NULL == set)
        return;
    int got = -1;
    if (NULL != opal_process_info.cpuset && '\0' != opal_process_info.cpuset[0])
        got = hwloc_bitmap_list_sscanf(set, opal_process_info.cpuset);
    if (0 != got)
        got = hwloc_get_cpubind(opal_hwloc_topology, set, HWLOC_CPUBIND_PROCESS);
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

/* A place packed in 64 bits: package, numa, l3, core + 1 in 16 bits each (0: unknown). */
static uint64_t pack_place(const mt_place *p)
{
    const int32_t v[4] = {p->package, p->numa, p->l3, p->core};
    uint64_t packed = 0;
    for (int i = 0; i < 4; ++i)
        packed |= (uint64_t) (v[i] < 0 || v[i] >= 0xffff ? 0 : v[i] + 1) << (16 * i);
    return packed;
}

static void unpack_place(uint64_t packed, mt_place *p)
{
    int32_t v[4];
    for (int i = 0; i < 4; ++i)
        v[i] = (int32_t) ((packed >> (16 * i)) & 0xffff) - 1;
    *p = (mt_place){.node = -1, .package = v[0], .numa = v[1], .l3 = v[2], .core = v[3]};
}

int mca_coll_modeltuned_publish(const uint64_t values[MCA_COLL_MODELTUNED_PUBLISHED_KEYS])
{
    mt_place place;
    uint64_t all[MCA_COLL_MODELTUNED_PUBLISHED_KEYS];
    memcpy(all, values, sizeof all);
    my_place(&place);
    all[MCA_COLL_MODELTUNED_PUBLISHED_PLACE] = pack_place(&place);
    uint64_t host = 1469598103934665603ULL; /* FNV-1a of the node name */
    for (const char *s = opal_process_info.nodename; NULL != s && *s; ++s)
        host = (host ^ (unsigned char) *s) * 1099511628211ULL;
    all[MCA_COLL_MODELTUNED_PUBLISHED_HOST] = host;
    int rc = OPAL_SUCCESS;
    for (int k = 0; k < MCA_COLL_MODELTUNED_PUBLISHED_KEYS && OPAL_SUCCESS == rc; ++k)
        OPAL_MODEX_SEND_VALUE(rc, MCA_COLL_MODELTUNED_MODEX_GLOBAL, published_key_names[k], &all[k],
                              MCA_COLL_MODELTUNED_MODEX_UINT64);
    return rc;
}

#if OMPI_MAJOR_VERSION >= 5
/* 5.0's PMIx holds the data of other nodes' ranks in the PMIx servers: a get that stays local
 * (OPTIONAL, IMMEDIATE) never finds it, and a plain get waits for ever for a key never published
 * (modeltuned not loaded on that rank's node). Every rank publishes its keys before MPI_Init's
 * exchange, so a present key arrives at once; the timeout bounds the wait for an absent one. */
#    define MODEX_TIMEOUT_S 5
static int modex_get(const opal_process_name_t *name, const char *key, pmix_value_t **kv)
{
    pmix_proc_t proc;
    pmix_info_t info;
    int timeout = MODEX_TIMEOUT_S;
    OPAL_PMIX_CONVERT_NAME(&proc, name);
    PMIX_INFO_LOAD(&info, PMIX_TIMEOUT, &timeout, PMIX_INT);
    *kv = NULL;
    const pmix_status_t rc = PMIx_Get(&proc, key, &info, 1, kv);
    PMIX_INFO_DESTRUCT(&info);
    return PMIX_SUCCESS == rc && NULL != *kv ? OPAL_SUCCESS : OPAL_ERR_NOT_FOUND;
}

static int modex_recv_uint64(const opal_process_name_t *name, const char *key, uint64_t *out)
{
    pmix_value_t *kv;
    int rc = modex_get(name, key, &kv);
    if (OPAL_SUCCESS == rc && PMIX_UINT64 == kv->type)
        *out = kv->data.uint64;
    else
        rc = OPAL_ERR_NOT_FOUND;
    if (NULL != kv)
        PMIX_VALUE_RELEASE(kv);
    return rc;
}

char *mca_coll_modeltuned_published_string(struct ompi_proc_t *proc, const char *key)
{
    pmix_value_t *kv;
    char *out = NULL;
    if (OPAL_SUCCESS == modex_get(&proc->super.proc_name, key, &kv) &&
        PMIX_BYTE_OBJECT == kv->type && kv->data.bo.size > 0 &&
        '\0' == kv->data.bo.bytes[kv->data.bo.size - 1])
        out = strdup(kv->data.bo.bytes);
    if (NULL != kv)
        PMIX_VALUE_RELEASE(kv);
    return out;
}
#else
/* 4.1's modex holds every rank's data after MPI_Init's exchange: OPTIONAL finds it, and does not
 * wait for a key never published. */
static int modex_recv_uint64(const opal_process_name_t *name, const char *key, uint64_t *out)
{
    uint64_t value = 0, *ptr = &value;
    int rc;
    OPAL_MODEX_RECV_VALUE_OPTIONAL(rc, key, name, &ptr, MCA_COLL_MODELTUNED_MODEX_UINT64);
    if (OPAL_SUCCESS == rc)
        *out = value;
    return OPAL_SUCCESS == rc ? OPAL_SUCCESS : OPAL_ERR_NOT_FOUND;
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

/* Cached per rank of this job (the modex is read-only after MPI_Init). */
int mca_coll_modeltuned_published(struct ompi_proc_t *proc, int key, uint64_t *out)
{
    static uint64_t
        *cache[MCA_COLL_MODELTUNED_PUBLISHED_KEYS]; /* per vpid: value + 1, 0 = not looked up */
    static uint32_t cached_procs;
    const bool same_job = proc->super.proc_name.jobid == OMPI_PROC_MY_NAME->jobid;
    const uint32_t vpid = proc->super.proc_name.vpid;
    if (same_job && 0 == cached_procs && ompi_process_info.num_procs > 0) {
        cached_procs = ompi_process_info.num_procs;
        for (int k = 0; k < MCA_COLL_MODELTUNED_PUBLISHED_KEYS; ++k)
            cache[k] = calloc(cached_procs, sizeof *cache[k]);
    }
    uint64_t *slot = same_job && NULL != cache[key] && vpid < cached_procs ? &cache[key][vpid]
                                                                           : NULL;
    if (NULL != slot && 0 != *slot) {
        if (UINT64_MAX == *slot)
            return OPAL_ERR_NOT_FOUND;
        *out = *slot - 1;
        return OPAL_SUCCESS;
    }
    uint64_t value = 0;
    const int rc = modex_recv_uint64(&proc->super.proc_name, published_key_names[key], &value);
    if (NULL != slot)
        *slot = OPAL_SUCCESS == rc && value != UINT64_MAX ? value + 1 : UINT64_MAX;
    /* The keys are published together: one absent, all absent (no wait for each under 5.0). */
    for (int k = 0; OPAL_SUCCESS != rc && NULL != slot && k < MCA_COLL_MODELTUNED_PUBLISHED_KEYS;
         ++k)
        if (NULL != cache[k])
            cache[k][vpid] = UINT64_MAX;
    if (OPAL_SUCCESS != rc)
        return OPAL_ERR_NOT_FOUND;
    *out = value;
    return OPAL_SUCCESS;
}

typedef struct host_rank {
    bool known;
    uint64_t host; /* hash of the node name */
    int rank;
} host_rank;

/* By host (unknown hosts last), then by rank: each host's first rank leads its group. */
static int compare_host_rank(const void *a, const void *b)
{
    const host_rank *x = a, *y = b;
    if (x->known != y->known)
        return x->known ? -1 : 1;
    if (x->known && x->host != y->host)
        return x->host < y->host ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
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
    bool ranks_share_a_node = false;
    mt_place *places = malloc(sizeof *places * size);
    host_rank *by_host = malloc(sizeof *by_host * size);
    if (NULL == places || NULL == by_host) {
        free(places);
        free(by_host);
        return OMPI_ERR_OUT_OF_RESOURCE; /* a rank out of memory at setup: see design.md */
    }
    for (int r = 0; r < size; ++r) {
        struct ompi_proc_t *proc = ompi_comm_peer_lookup(comm, r);
        uint64_t packed = 0, host = 0;
        bool known = OPAL_SUCCESS ==
                     mca_coll_modeltuned_published(proc, MCA_COLL_MODELTUNED_PUBLISHED_HOST, &host);
        (void) mca_coll_modeltuned_published(proc, MCA_COLL_MODELTUNED_PUBLISHED_PLACE, &packed);
        unpack_place(packed, &places[r]);
        by_host[r] = (host_rank){known, host, r};
    }
    /* Node id: the first rank on the same host (a rank whose host is unknown: a node of its own).
     * Sorted, not compared pairwise: O(P log P) at any number of nodes. */
    qsort(by_host, size, sizeof *by_host, compare_host_rank);
    for (int k = 0; k < size; ++k) {
        const bool same = k > 0 && by_host[k].known && by_host[k - 1].known &&
                          by_host[k].host == by_host[k - 1].host;
        places[by_host[k].rank].node = same ? places[by_host[k - 1].rank].node : by_host[k].rank;
        ranks_share_a_node |= same;
    }
    /* han (5.0 across nodes) hands every call to tuned where each node holds one rank
     * (coll_han_subcomms.c): there the default is tuned's fixed rule, elsewhere han's own. */
    m->han_default_ops = 0;
    for (int op = 0; op < 2; ++op)
        if (ranks_share_a_node && NULL != m->fallback[op] && 0 == strcmp(m->fallback[op], "han"))
            m->han_default_ops |= 1 << op;
    m->model = mt_comm_model_create(c->table, size, places, m->allowed[MT_OP_BCAST],
                                    m->allowed[MT_OP_REDUCE], m->han_default_ops, err, sizeof err);
    free(places);
    free(by_host);
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
