/*
 * Decisions: the per-module cache behind mca_coll_modeltuned_lookup (coll_modeltuned_call.h: the
 * last root per size class, and a hash table, by root, of the decisions another root replaced
 * there), and the model run on a miss, its decision recorded (coll_modeltuned_record.c) and its
 * pick handed to the guard (coll_modeltuned_guard.c).
 */
#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include "coll_modeltuned.h"
#include MCA_COLL_MODELTUNED_RTE_H
#include "ompi/mca/coll/base/coll_base_functions.h"
#include "opal/util/printf.h"

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
                                            .splits = a->splits,
                                            .foreign = 0 == segsize ? a->foreign : 0,
                                            .component = a->component};
}

/* What a call of another component's pick `d` is predicted to save against Open MPI's default, in
 * ns, at least 1 so that its private communicator is made in the end; where the default was no
 * candidate (narrowed lists), the pick's own time stands for it. */
static uint16_t saves_ns(const mt_decision *d)
{
    const double saved_us = d->default_us > 0 ? d->default_us - d->predicted_us : d->predicted_us;
    const double ns = saved_us * 1e3;
    return ns >= 65535 ? 65535 : ns >= 1 ? (uint16_t) ns : 1;
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
    uint8_t *in_remembered = &m->rows[kind].in_remembered[size_class];
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
    m->rows[kind].in_remembered[size_class] = 1;
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
    /* The base algorithms keep their trees and request arrays in base_data: made with the first
     * pick that runs one, so that a communicator whose calls all keep the default pays nothing for
     * it. Without memory, the default runs. */
    if (0 == rc && 0 != decision.algorithm && NULL == m->super.base_data)
        m->super.base_data = OBJ_NEW(mca_coll_base_comm_t);
    if (0 == rc && 0 != decision.algorithm && NULL != m->super.base_data) {
        slot->decision = to_run(op, decision.algorithm, decision.segsize, decision.fanout);
        if (0 != slot->decision.component)
            slot->decision.saves_ns = saves_ns(&decision);
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

void mca_coll_modeltuned_calls_prepare(mca_coll_modeltuned_module_t *m, int kind)
{
    if (mca_coll_modeltuned_calls_ready(m, kind))
        return;
    memset(m->rows[kind].calls, 0, sizeof m->rows[kind].calls);
    m->ready[kind] |= MCA_COLL_MODELTUNED_CALLS_READY;
}

void mca_coll_modeltuned_slot_prepare(mca_coll_modeltuned_module_t *m, int kind, int size_class)
{
    mca_coll_modeltuned_calls_prepare(m, kind);
    if (mca_coll_modeltuned_slot_ready(m, kind, size_class))
        return;
    const int group = size_class >> MCA_COLL_MODELTUNED_GROUP_BITS,
              first = group << MCA_COLL_MODELTUNED_GROUP_BITS;
    const int n = first + (1 << MCA_COLL_MODELTUNED_GROUP_BITS) <= MCA_COLL_MODELTUNED_SIZE_CLASSES
                      ? 1 << MCA_COLL_MODELTUNED_GROUP_BITS
                      : MCA_COLL_MODELTUNED_SIZE_CLASSES - first;
    memset(&m->rows[kind].slots[first], 0, sizeof m->rows[kind].slots[0] * (size_t) n);
    memset(&m->rows[kind].in_remembered[first], 0, (size_t) n);
    m->ready[kind] |= (uint16_t) (1u << group);
}

mca_coll_modeltuned_decision_t *mca_coll_modeltuned_decide(mca_coll_modeltuned_module_t *m,
                                                           struct ompi_communicator_t *comm,
                                                           int kind, int size_class, size_t count,
                                                           size_t type_size, int root)
{
    mca_coll_modeltuned_slot_prepare(m, kind, size_class); /* the caller counts the call there */
    if (OPAL_UNLIKELY(MCA_COLL_MODELTUNED_READY != m->state))
        return NULL; /* setup failed at enable, or disabled: no row, every call handed back */
    mca_coll_modeltuned_slot_t *slot = slot_for(m, kind, size_class);
    if (recall(m, slot, kind, size_class, root))
        return decided(slot);
    (void) run_model(m, comm, kind, size_class, count, type_size, root, slot);
    return decided(slot);
}
