/*
 * Decisions: the per-module cache behind mca_coll_modeltuned_lookup (coll_modeltuned_call.h: the
 * last root per size class, and a hash table, by root, of the decisions another root replaced
 * there), the decision file, and the verbose traces.
 */
#include "ompi_config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll_modeltuned.h"
#include MCA_COLL_MODELTUNED_RTE_H
#include "opal/util/printf.h"

/* "%r" (the rank in MPI_COMM_WORLD) or "%p" (the process id) in the name: a file per process. */
static bool per_process(const char *file)
{
    return NULL != strstr(file, "%r") || NULL != strstr(file, "%p");
}

bool mca_coll_modeltuned_records(struct ompi_communicator_t *comm)
{
    const char *file = mca_coll_modeltuned_component.decision_file;
    return NULL != file && '\0' != file[0] && (per_process(file) || 0 == ompi_comm_rank(comm));
}

/* The decision file's name with every "%r" and "%p" replaced. */
static void decision_path(const char *file, char *path, size_t len)
{
    size_t k = 0;
    for (const char *p = file; *p && k + 1 < len; ++p) {
        if ('%' == p[0] && ('r' == p[1] || 'p' == p[1])) {
            const unsigned long value = 'r' == p[1] ? (unsigned long) OMPI_PROC_MY_NAME->vpid
                                                    : (unsigned long) getpid();
            const int n = snprintf(path + k, len - k, "%lu", value);
            if (n < 0 || (size_t) n >= len - k)
                break;
            k += (size_t) n;
            ++p;
        } else {
            path[k++] = *p;
        }
    }
    path[k] = '\0';
}

/* One JSON line per record: `object`'s fields after the communicator's and the rank's. Appended
 * with a single write() so lines from several processes do not interleave. */
void mca_coll_modeltuned_record(mca_coll_modeltuned_module_t *m, struct ompi_communicator_t *comm,
                                int op, const char *object)
{
    mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    char path[4096], *line = NULL;
    decision_path(c->decision_file, path, sizeof path);
    char channels[64];
    mt_comm_model_channels(m->model, channels, sizeof channels);
    char name[2 * MPI_MAX_OBJECT_NAME]; /* the communicator's name, JSON-escaped */
    size_t k = 0;
    for (const char *p = comm->c_name; *p && k + 2 < sizeof name; ++p) {
        if ('"' == *p || '\\' == *p)
            name[k++] = '\\';
        name[k++] = (unsigned char) *p < 0x20 ? ' ' : *p;
    }
    name[k] = '\0';
    /* Where a call handed back goes: tuned, or han handing it to tuned (module.c) */
    const char *fallback = NULL != m->fallback[op] ? m->fallback[op] : "unknown";
    /* object is a JSON object: splice the communicator's fields in after its '{'. */
    int n = opal_asprintf(&line,
                          "{\"cid\":%d,\"comm\":\"%s\",\"world_rank\":%u,\"comm_rank\":%d,"
                          "\"channels\":\"%s\",\"fallback\":\"%s\",%s\n",
                          mca_coll_modeltuned_cid(comm), name, (unsigned) OMPI_PROC_MY_NAME->vpid,
                          ompi_comm_rank(comm), channels, fallback, object + 1);
    if (n < 0)
        return;
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd < 0 || write(fd, line, n) != n) {
        if (mca_coll_modeltuned_once(
                MCA_COLL_MODELTUNED_ONCE_DECISION_FILE)) /* the calls still run */
            mca_coll_modeltuned_show_help(true, "decision-file-unwritable", path, strerror(errno));
    }
    if (fd >= 0)
        close(fd);
    free(line);
}

static uint64_t remembered_key(int kind, int size_class, int root)
{
    return ((uint64_t) (uint32_t) (root + 1) << 16) | ((uint64_t) kind << 8) |
           (uint64_t) size_class;
}

static mca_coll_modeltuned_slot_t *remembered_slot(mca_coll_modeltuned_module_t *m, uint64_t key)
{
    size_t mask = m->remembered_capacity - 1,
           i = (size_t) ((key * 0x9E3779B97F4A7C15ULL) >> 32) & mask;
    while (0 != m->remembered[i].key && key != m->remembered[i].key)
        i = (i + 1) & mask;
    return &m->remembered[i];
}

/* Keeps a decision; a full or missing table only costs a later recomputation, never a wrong one. */
static void remember(mca_coll_modeltuned_module_t *m, uint64_t key,
                     const mca_coll_modeltuned_decision_t *d)
{
    if (2 * (m->remembered_count + 1) > m->remembered_capacity) {
        size_t old_capacity = m->remembered_capacity;
        mca_coll_modeltuned_slot_t *old = m->remembered;
        size_t capacity = 0 == old_capacity ? 64 : 2 * old_capacity;
        mca_coll_modeltuned_slot_t *grown = calloc(capacity, sizeof *grown);
        if (NULL == grown)
            return;
        m->remembered = grown;
        m->remembered_capacity = capacity;
        for (size_t i = 0; i < old_capacity; ++i)
            if (0 != old[i].key)
                *remembered_slot(m, old[i].key) = old[i];
        free(old);
    }
    mca_coll_modeltuned_slot_t *slot = remembered_slot(m, key);
    if (0 == slot->key)
        ++m->remembered_count;
    slot->key = key;
    slot->decision = *d;
}

/* A decision to run `algorithm` (resolved at open: the model only picks allowed, runnable ones),
 * with its dispatch entry copied in; not watched until the guard says so. */
static mca_coll_modeltuned_decision_t to_run(int op, int32_t algorithm, uint32_t segsize,
                                             int32_t fanout)
{
    const mca_coll_modeltuned_algorithm_t *a = &mca_coll_modeltuned_component
                                                    .algorithms[op][algorithm];
    return (mca_coll_modeltuned_decision_t){.fn = a->fn,
                                            .algorithm = (int8_t) algorithm,
                                            .segsize = segsize,
                                            .countdown = UINT32_MAX,
                                            .fanout = (int16_t) fanout,
                                            .convention = (int8_t) a->convention,
                                            .splits = a->splits};
}

/* What a slot tells the caller: NULL for algorithm 0 (Open MPI's default was kept by the margin,
 * or nothing can run: the previous component runs the call). */
static mca_coll_modeltuned_decision_t *decided(mca_coll_modeltuned_slot_t *slot)
{
    return 0 != slot->decision.algorithm ? &slot->decision : NULL;
}

/* The slot for (kind, size class). Another root's decision found there is kept for that root's
 * return; one recalled from the remembered decisions goes back only if it changed since (a watched
 * decision counts its calls; one taken back clears in_remembered). */
static mca_coll_modeltuned_slot_t *slot_for(mca_coll_modeltuned_module_t *m, int kind,
                                            int size_class)
{
    mca_coll_modeltuned_slot_t *slot = &m->rows[kind].slots[size_class];
    uint8_t *in_remembered = &m->in_remembered[kind][size_class];
    if (0 != slot->key && (!*in_remembered || 0 != slot->decision.guard))
        remember(m, remembered_key(kind, size_class, (int) slot->key - 1), &slot->decision);
    *in_remembered = 0;
    return slot;
}

/* Whether this root's decision was remembered; if so it is back in `slot`. */
static bool recall(mca_coll_modeltuned_module_t *m, mca_coll_modeltuned_slot_t *slot, int kind,
                   int size_class, int root)
{
    if (NULL == m->remembered)
        return false;
    const mca_coll_modeltuned_slot_t *seen = remembered_slot(m, remembered_key(kind, size_class,
                                                                               root));
    if (0 == seen->key)
        return false;
    slot->decision = seen->decision;
    slot->key = (uint64_t) root + 1;
    m->in_remembered[kind][size_class] = 1;
    return true;
}

/* The model's decision as the decision file records it: its JSON, with the call count of the
 * guard's first window spliced in when the pick is watched. */
static void record_decision(mca_coll_modeltuned_module_t *m, struct ompi_communicator_t *comm,
                            int op, const char *json, const mca_coll_modeltuned_decision_t *d)
{
    char *watched = NULL;
    if (0 != d->guard &&
        0 > opal_asprintf(&watched, "{\"guard_first_window\":%u,%s", d->countdown, json + 1))
        watched = NULL;
    mca_coll_modeltuned_record(m, comm, op, NULL != watched ? watched : json);
    free(watched);
}

/* Runs the model for the call into `slot`, with the decision file's line and the verbose-10 line
 * (comm rank 0); the guard watches a pick that leaves Open MPI's default. Returns mt_decide's
 * status. */
static int run_model(mca_coll_modeltuned_module_t *m, struct ompi_communicator_t *comm, int kind,
                     int size_class, size_t count, size_t type_size, int root,
                     mca_coll_modeltuned_slot_t *slot)
{
    const mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    const int op = mca_coll_modeltuned_kind_op(kind);
    const int variant = mca_coll_modeltuned_kind_variant(kind); /* 0 for a plain collective */
    const bool ordered = MCA_COLL_MODELTUNED_REDUCTION_ORDERED == variant;
    const bool user_op = ordered || MCA_COLL_MODELTUNED_REDUCTION_USER == variant;
    const bool record = mca_coll_modeltuned_records(comm);
    const bool log = c->verbose >= 10 && 0 == ompi_comm_rank(comm);
    mt_decision_report report = {.want_json = record};
    const mt_call call = {.op = op,
                          .root = root,
                          .count = count,
                          .type_size = type_size,
                          .commutative = !ordered,
                          .whole_message = user_op,
                          .objective = c->objective};
    mt_decision decision;
    const int rc = mt_decide(m->model, &call, &decision, record || log ? &report : NULL);
    if (0 == rc && 0 != decision.algorithm) {
        slot->decision = to_run(op, decision.algorithm, decision.segsize, decision.fanout);
        mca_coll_modeltuned_guard_watch(m, kind, size_class, root, &slot->decision, &decision);
    } else { /* nothing can run, or Open MPI's default: handed back */
        slot->decision = (mca_coll_modeltuned_decision_t){.countdown = UINT32_MAX};
    }
    slot->key = (uint64_t) root + 1;
    if (NULL != report.json) {
        record_decision(m, comm, op, report.json, &slot->decision);
        free(report.json);
    }
    if (0 == rc && log)
        opal_output(
            c->output,
            "coll:modeltuned:decide cid=%d name=%s op=%s bytes=%zu root=%d%s pick=%s "
            "predicted_us=%.3f runner_up=%s runner_up_us=%.3f margin=%.3f ompi=%s fallback=%s%s",
            mca_coll_modeltuned_cid(comm), comm->c_name, mca_coll_modeltuned_op_name(op),
            count * type_size, root,
            ordered   ? " noncommutative"
            : user_op ? " user_op"
                      : "",
            report.pick, decision.predicted_us, report.runner_up, decision.runner_up_us,
            report.margin, MCA_COLL_MODELTUNED_OMPI_SERIES,
            NULL != m->fallback[op] ? m->fallback[op] : "unknown",
            0 != slot->decision.guard ? " guard=watched" : "");
    return rc;
}

mca_coll_modeltuned_decision_t *mca_coll_modeltuned_decide(mca_coll_modeltuned_module_t *m,
                                                           struct ompi_communicator_t *comm,
                                                           int kind, int size_class, size_t count,
                                                           size_t type_size, int root)
{
    if (OPAL_UNLIKELY(MCA_COLL_MODELTUNED_READY != m->state))
        return NULL; /* setup failed at enable, or disabled: no row, every call handed back */
    mca_coll_modeltuned_slot_t *slot = slot_for(m, kind, size_class);
    if (recall(m, slot, kind, size_class, root))
        return decided(slot);
    (void) run_model(m, comm, kind, size_class, count, type_size, root, slot);
    return decided(slot);
}

void mca_coll_modeltuned_trace(struct ompi_communicator_t *comm, int op, size_t bytes, int root,
                               const mca_coll_modeltuned_decision_t *d)
{
    char parameters[96] = ""; /* d == NULL: the previous component ran it */
    const char *name = NULL != d ? mca_coll_modeltuned_component.algorithms[op][d->algorithm].name
                                 : NULL;
    if (NULL != d)
        snprintf(parameters, sizeof parameters, " segsize=%u fanout=%d", d->segsize, d->fanout);
    opal_output(mca_coll_modeltuned_component.output,
                "coll:modeltuned:%s cid=%d name=%s rank=%d bytes=%zu root=%d algorithm=%s%s",
                mca_coll_modeltuned_op_name(op), mca_coll_modeltuned_cid(comm), comm->c_name,
                ompi_comm_rank(comm), bytes, root, NULL == d ? "fallback" : name, parameters);
}
