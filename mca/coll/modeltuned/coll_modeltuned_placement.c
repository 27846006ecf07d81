/*
 * Where every rank sits, exchanged once per communicator on its first bcast or reduce, and the
 * per-size-class decisions made from it.
 */
#include "ompi_config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll_modeltuned.h"
#include "ompi/datatype/ompi_datatype.h"
#include "opal/mca/hwloc/base/base.h"
#include "opal/util/printf.h"
#include "opal/util/proc.h"
#include "ompi/mca/rte/rte.h"

/* What each rank contributes: host hash (2 ints), package, numa, l3, core, allowed bcast and reduce
 * algorithms. The masks make every rank fall back together if their algorithm parameters
 * (writable through MPI_T) differ; that every rank has the same table was settled by comm_query. */
enum { EXCHANGE_INTS = 8 };

static int logical_index_of(hwloc_obj_t covering, hwloc_obj_type_t type)
{
    if (NULL == covering) return -1;
    if (covering->type == type) return (int) covering->logical_index;
    hwloc_obj_t ancestor = hwloc_get_ancestor_obj_by_type(opal_hwloc_topology, type, covering);
    return NULL == ancestor ? -1 : (int) ancestor->logical_index;
}

/* Binding from Open MPI's mapping (honours hwloc_base_topo_file emulation, where nothing is
 * really bound) or, failing that, the actual binding. */
static void my_place(mt_place *place)
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

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; NULL != s && *s; ++s) h = (h ^ (unsigned char) *s) * 1099511628211ULL;
    return h;
}

int mca_coll_modeltuned_setup(mca_coll_modeltuned_module_t *m, struct ompi_communicator_t *comm)
{
    mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    const int size = ompi_comm_size(comm);
    int32_t mine[EXCHANGE_INTS];
    mt_place place;
    char err[512];
    int rc;

    /* The allgather below may itself call bcast (ours): it must fall back, not recurse. */
    m->state = MCA_COLL_MODELTUNED_FALLBACK;

    my_place(&place);
    uint64_t host = fnv1a(opal_process_info.nodename);
    mine[0] = (int32_t) (host & 0xffffffffu);
    mine[1] = (int32_t) (host >> 32);
    mine[2] = place.package;
    mine[3] = place.numa;
    mine[4] = place.l3;
    mine[5] = place.core;
    mine[6] = (int32_t) m->allowed[MT_OP_BCAST];
    mine[7] = (int32_t) m->allowed[MT_OP_REDUCE];

    int32_t *all = malloc(sizeof(int32_t) * EXCHANGE_INTS * size);
    mt_place *places = malloc(sizeof(mt_place) * size);
    if (NULL == all || NULL == places) {
        free(all);
        free(places);
        return OMPI_ERR_OUT_OF_RESOURCE;  /* every rank may not agree: see design.md */
    }
    rc = comm->c_coll->coll_allgather(mine, EXCHANGE_INTS, MPI_INT, all, EXCHANGE_INTS, MPI_INT,
                                      comm, comm->c_coll->coll_allgather_module);
    if (OMPI_SUCCESS != rc) goto out;

    /* From here on every rank computes from the same gathered data: same outcome everywhere. */
    for (int r = 0; r < size; ++r) {
        const int32_t *e = all + EXCHANGE_INTS * r;
        if (e[6] != mine[6] || e[7] != mine[7]) {
            if (0 == ompi_comm_rank(comm))
                opal_output(0, "coll:modeltuned: cid=%d name=%s: ranks 0 and %d use different algorithm "
                            "lists; set coll_modeltuned_{bcast,reduce}_algorithms to the same value on "
                            "every rank; Open MPI's own decisions will be used on this communicator",
                            ompi_comm_get_cid(comm), comm->c_name, r);
            rc = OMPI_ERROR;
            goto out;
        }
        /* Node id: the first rank on the same host. */
        int node = r;
        for (int q = 0; q < r; ++q)
            if (all[EXCHANGE_INTS * q] == e[0] && all[EXCHANGE_INTS * q + 1] == e[1]) { node = q; break; }
        places[r] = (mt_place){ .node = node, .package = e[2], .numa = e[3], .l3 = e[4], .core = e[5] };
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

/* One JSON line per decision: the model's own report plus which communicator and rank. Appended
 * with a single write() so lines from several processes do not interleave. */
static void record_decision(mca_coll_modeltuned_module_t *m, struct ompi_communicator_t *comm,
                            const char *decision, bool per_rank)
{
    mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    char path[4096], *line = NULL;
    const char *file = c->decision_file;
    const char *mark = strstr(file, "%r");
    if (per_rank) {
        snprintf(path, sizeof path, "%.*s%u%s", (int) (mark - file), file,
                 (unsigned) OMPI_PROC_MY_NAME->vpid, mark + 2);
    } else {
        snprintf(path, sizeof path, "%s", file);
    }
    char channels[64];
    mt_comm_model_channels(m->model, channels, sizeof channels);
    char name[2 * MPI_MAX_OBJECT_NAME];  /* the communicator's name, JSON-escaped */
    size_t k = 0;
    for (const char *p = comm->c_name; *p && k + 2 < sizeof name; ++p) {
        if ('"' == *p || '\\' == *p) name[k++] = '\\';
        name[k++] = (unsigned char) *p < 0x20 ? ' ' : *p;
    }
    name[k] = '\0';
    /* decision is a JSON object: splice the communicator's fields in after its '{'. */
    int n = opal_asprintf(&line, "{\"cid\":%d,\"comm\":\"%s\",\"world_rank\":%u,\"comm_rank\":%d,"
                          "\"channels\":\"%s\",%s\n", ompi_comm_get_cid(comm), name,
                          (unsigned) OMPI_PROC_MY_NAME->vpid, ompi_comm_rank(comm), channels, decision + 1);
    if (n < 0) return;
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd < 0 || write(fd, line, n) != n) {
        if (!c->decision_file_warned) {
            c->decision_file_warned = true;
            opal_output(0, "coll:modeltuned: coll_modeltuned_decision_file '%s': cannot write (%s); "
                        "decisions are not recorded", path, strerror(errno));
        }
    }
    if (fd >= 0) close(fd);
    free(line);
}

static uint64_t remembered_key(int op, int commutative, int size_class, int root)
{
    return ((uint64_t) (uint32_t) (root + 1) << 16) | ((uint64_t) op << 8) |
           ((uint64_t) commutative << 7) | (uint64_t) size_class;
}

static mca_coll_modeltuned_remembered_t *remembered_slot(mca_coll_modeltuned_module_t *m, uint64_t key)
{
    size_t mask = m->remembered_capacity - 1, i = (size_t) ((key * 0x9E3779B97F4A7C15ULL) >> 32) & mask;
    while (0 != m->remembered[i].key && key != m->remembered[i].key) i = (i + 1) & mask;
    return &m->remembered[i];
}

/* Keeps a decision; a full or missing table only costs a later recomputation, never a wrong one. */
static void remember(mca_coll_modeltuned_module_t *m, uint64_t key, const mt_decision *d)
{
    if (2 * (m->remembered_count + 1) > m->remembered_capacity) {
        size_t old_capacity = m->remembered_capacity;
        mca_coll_modeltuned_remembered_t *old = m->remembered;
        size_t capacity = 0 == old_capacity ? 64 : 2 * old_capacity;
        mca_coll_modeltuned_remembered_t *grown = calloc(capacity, sizeof *grown);
        if (NULL == grown) return;
        m->remembered = grown;
        m->remembered_capacity = capacity;
        for (size_t i = 0; i < old_capacity; ++i)
            if (0 != old[i].key) *remembered_slot(m, old[i].key) = old[i];
        free(old);
    }
    mca_coll_modeltuned_remembered_t *slot = remembered_slot(m, key);
    if (0 == slot->key) ++m->remembered_count;
    slot->key = key;
    slot->decision = *d;
}

const mt_decision *mca_coll_modeltuned_decide(mca_coll_modeltuned_module_t *m,
                                              struct ompi_communicator_t *comm, int op,
                                              size_t count, size_t type_size, int root,
                                              int commutative)
{
    const int size_class = mca_coll_modeltuned_size_class(count * type_size);
    mca_coll_modeltuned_choice_t *choice = &m->choices[op][commutative][size_class];
    const uint64_t key = remembered_key(op, commutative, size_class, root);
    if (NULL != m->remembered) {
        const mca_coll_modeltuned_remembered_t *seen = remembered_slot(m, key);
        if (0 != seen->key) {
            choice->decision = seen->decision;
            choice->root = root;
            return 0 != choice->decision.algorithm ? &choice->decision : NULL;
        }
    }
    const char *file = mca_coll_modeltuned_component.decision_file;
    const bool per_rank = NULL != file && NULL != strstr(file, "%r");
    const bool record = NULL != file && '\0' != file[0] && (per_rank || 0 == ompi_comm_rank(comm));
    const bool log = mca_coll_modeltuned_component.verbose >= 10 && 0 == ompi_comm_rank(comm);
    mt_decision_report report = { .want_json = record };
    const mt_call call = { .op = op, .root = root, .count = count, .type_size = type_size,
                           .commutative = commutative, .whole_message = 0 };
    int rc = mt_decide(m->model, &call, &choice->decision, record || log ? &report : NULL);
    if (NULL != report.json) {
        record_decision(m, comm, report.json, per_rank);
        free(report.json);
    }
    if (0 != rc) memset(&choice->decision, 0, sizeof choice->decision);  /* nothing can run */
    choice->root = root;
    remember(m, key, &choice->decision);
    if (0 != rc) return NULL;
    if (log) {
        const mt_decision *d = &choice->decision;
        opal_output(mca_coll_modeltuned_component.output,
                    "coll:modeltuned:decide cid=%d name=%s op=%s bytes=%zu root=%d%s pick=%s "
                    "predicted_us=%.3f runner_up=%s runner_up_us=%.3f",
                    ompi_comm_get_cid(comm), comm->c_name, MT_OP_BCAST == op ? "bcast" : "reduce",
                    count * type_size, root, commutative ? "" : " noncommutative", report.pick,
                    d->predicted_us, report.runner_up, d->runner_up_us);
    }
    return &choice->decision;
}

void mca_coll_modeltuned_trace(struct ompi_communicator_t *comm, int op, size_t bytes, int root,
                               const mt_decision *d)
{
    if (NULL == d) {  /* handed to the previous component (setup failed, or nothing predictable) */
        opal_output(mca_coll_modeltuned_component.output,
                    "coll:modeltuned:%s cid=%d name=%s rank=%d bytes=%zu root=%d algorithm=fallback",
                    MT_OP_BCAST == op ? "bcast" : "reduce", ompi_comm_get_cid(comm), comm->c_name,
                    ompi_comm_rank(comm), bytes, root);
        return;
    }
    opal_output(mca_coll_modeltuned_component.output,
                "coll:modeltuned:%s cid=%d name=%s rank=%d bytes=%zu root=%d algorithm=%s "
                "segsize=%u fanout=%d", MT_OP_BCAST == op ? "bcast" : "reduce",
                ompi_comm_get_cid(comm), comm->c_name, ompi_comm_rank(comm), bytes, root,
                mt_algorithm_name(op, d->algorithm), d->segsize, d->fanout);
}
