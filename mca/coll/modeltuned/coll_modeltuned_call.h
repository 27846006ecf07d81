/*
 * The call path's inline part, shared by the collectives' files (coll_modeltuned_<name>.c) and the
 * lookup benchmark: the size class, the cached decision of a call, whether it cuts the message,
 * the count and trace of what ran, the previous component, the guard's turn, and the templates of
 * the reductions and the block exchanges. Nothing else includes it but the guard
 * (coll_modeltuned_guard.c): the decisions behind a miss need none of it.
 */
#ifndef MCA_COLL_MODELTUNED_CALL_H
#define MCA_COLL_MODELTUNED_CALL_H

#include "coll_modeltuned.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"

BEGIN_C_DECLS

/* Class k holds messages of [2^(k-1), 2^k) bytes, class 0 the empty message. */
static inline int mca_coll_modeltuned_size_class(size_t bytes)
{
    return 0 == bytes ? 0 : 64 - __builtin_clzll((unsigned long long) bytes);
}

/* Whether a call of decision `d`, a pick of another component, runs it: once its private
 * communicator is made. That is a dup of the user's communicator with the component on top, which
 * can cost hundreds of microseconds (coll/sm makes a shared-memory file for it), so it is made by
 * the pick that brings what the picks so far would have saved (the model's prediction, saves_ns) to
 * coll_modeltuned_other_cost_us; until then they run Open MPI's default, and a communicator used
 * for a few calls never pays for it. MPI_COMM_WORLD, which lives as long as the job, makes it at
 * its first pick. The same call on every rank: every rank makes the same picks with the same
 * predictions. Never where it could not be made. */
static inline bool mca_coll_modeltuned_other_runs(mca_coll_modeltuned_module_t *m,
                                                  const mca_coll_modeltuned_decision_t *d)
{
    const int k = d->component - 1;
    const struct ompi_communicator_t *priv = m->foreign[k];
    if (OPAL_LIKELY((uintptr_t) priv > (uintptr_t) MCA_COLL_MODELTUNED_FOREIGN_UNUSABLE))
        return true;
    if (NULL != priv) /* unusable */
        return false;
    m->foreign_saved_ns[k] += d->saves_ns;
    return m->foreign_saved_ns[k] >= m->foreign_cost_ns;
}

/* The hot path: the cached decision for this (call kind, size class, root) of a call moving
 * `count` elements of `type_size` bytes; on a miss the model runs. Callers pass an element every
 * rank shares (bytes, or an intrinsic reduction's predefined type), never a rank's own derived
 * datatype, which MPI lets differ between ranks of one type signature. NULL: hand the call to the
 * previous component (also for a pick of another component that does not run yet). */
static inline mca_coll_modeltuned_decision_t *
mca_coll_modeltuned_lookup(mca_coll_modeltuned_module_t *m, struct ompi_communicator_t *comm,
                           int kind, size_t count, size_t type_size, int root)
{
    const int size_class = mca_coll_modeltuned_size_class(count * type_size);
    mca_coll_modeltuned_slot_t *slot = &m->rows[kind].slots[size_class];
    mca_coll_modeltuned_decision_t *d;
    if (OPAL_UNLIKELY(!mca_coll_modeltuned_slot_ready(m, kind, size_class) ||
                      slot->key != (uint64_t) root + 1))
        d = mca_coll_modeltuned_decide(m, comm, kind, size_class, count, type_size, root);
    else
        d = OPAL_LIKELY(0 != slot->decision.algorithm) ? &slot->decision : NULL;
    if (NULL != d && OPAL_UNLIKELY(0 != d->component) && !mca_coll_modeltuned_other_runs(m, d))
        return NULL;
    return d;
}

/* Whether a call of `kind` moving `bytes` for `root` keeps Open MPI's default with nothing else to
 * do (its decision cached, no trace line or test delay due): then it is counted, and the entry
 * point hands it to the previous component as its last act, a tail call. That component then runs
 * on the very stack it runs on without modeltuned, called with the same return address: whatever
 * its frames leave below the application's is what they leave under plain Open MPI (an application
 * that reads that memory uninitialised reads the same; docs/reliability.md). Every other call goes
 * to the collective's `<name>_decided`, which is never inlined into the entry point, so that the
 * entry point needs no frame of its own. */
static inline bool mca_coll_modeltuned_hands_back(mca_coll_modeltuned_module_t *m, int kind,
                                                  size_t bytes, int root)
{
    mca_coll_modeltuned_row_t *row = &m->rows[kind];
    const int size_class = mca_coll_modeltuned_size_class(bytes);
    const mca_coll_modeltuned_slot_t *slot = &row->slots[size_class];
    if (OPAL_UNLIKELY(!mca_coll_modeltuned_slot_ready(m, kind, size_class) ||
                      slot->key != (uint64_t) root + 1 || 0 != slot->decision.algorithm ||
                      0 != m->call_flags))
        return false;
    ++row->calls[0];
    return true;
}

/* Where a call of `kind` moving `bytes` for `root` runs another component's collective as it is
 * (its decision cached, the component's private communicator made, no trace line or test delay due,
 * and the guard's countdown not at its step): the private communicator, the call counted and
 * counted down; the entry point then calls that component there as its last act, as the
 * component's entry in coll_modeltuned_foreign.c would one call deeper. NULL: the decided path. */
static inline struct ompi_communicator_t *
mca_coll_modeltuned_runs_foreign(mca_coll_modeltuned_module_t *m, int kind, size_t bytes, int root)
{
    mca_coll_modeltuned_row_t *row = &m->rows[kind];
    const int size_class = mca_coll_modeltuned_size_class(bytes);
    mca_coll_modeltuned_slot_t *slot = &row->slots[size_class];
    mca_coll_modeltuned_decision_t *d = &slot->decision;
    if (!mca_coll_modeltuned_slot_ready(m, kind, size_class) || slot->key != (uint64_t) root + 1 ||
        0 == d->foreign || 0 != m->call_flags || d->countdown <= 1)
        return NULL;
    struct ompi_communicator_t *priv = m->foreign[d->foreign - 1];
    if ((uintptr_t) priv <= (uintptr_t) MCA_COLL_MODELTUNED_FOREIGN_UNUSABLE)
        return NULL;
    --d->countdown;
    ++row->calls[d->algorithm];
    return priv;
}

/* A reduction's call kind (`first_kind`, its collective's first), from what every rank shares. An
 * intrinsic operation comes with a predefined datatype (Open MPI refuses others), the same on every
 * rank: decided on count and type size. A user-defined one sees each rank's own datatype, which may
 * differ between ranks: decided on bytes, whole-message algorithms only; a non-commutative one,
 * order-preserving ones only. The size class is the bytes' either way. */
static inline int mca_coll_modeltuned_reduction_kind(int first_kind, struct ompi_op_t *op)
{
    if (!ompi_op_is_commute(op))
        return first_kind + MCA_COLL_MODELTUNED_REDUCTION_ORDERED;
    if (!ompi_op_is_intrinsic(op))
        return first_kind + MCA_COLL_MODELTUNED_REDUCTION_USER;
    return first_kind + MCA_COLL_MODELTUNED_REDUCTION_INTRINSIC;
}

/* The decision for a reduction of the collective whose first call kind is `first_kind`. */
static inline mca_coll_modeltuned_decision_t *
mca_coll_modeltuned_lookup_reduction(mca_coll_modeltuned_module_t *m,
                                     struct ompi_communicator_t *comm, int first_kind,
                                     struct ompi_op_t *op, size_t count, size_t type_size, int root)
{
    const int kind = mca_coll_modeltuned_reduction_kind(first_kind, op);
    if (first_kind + MCA_COLL_MODELTUNED_REDUCTION_INTRINSIC == kind)
        return mca_coll_modeltuned_lookup(m, comm, kind, count, type_size, root);
    return mca_coll_modeltuned_lookup(m, comm, kind, count * type_size, 1, root);
}

/* The previous component's function for collective NAME, of type `type`, and its module: what a
 * call handed back runs. */
#define MCA_COLL_MODELTUNED_PREVIOUS_FN(m, NAME, type) ((type) (m)->previous[MT_OP_##NAME].fn)
#define MCA_COLL_MODELTUNED_PREVIOUS_MODULE(m, NAME)   ((m)->previous[MT_OP_##NAME].module)

/* Whether decision `d` cuts a message of `bytes` bytes into parts (segments, halves, blocks): on
 * every bcast, so inline. Open MPI segments when segsize < message (COLL_BASE_COMPUTED_SEGCOUNT;
 * the segment sizes searched are at least 1 KiB, above any element size). */
static inline bool mca_coll_modeltuned_cuts(const mca_coll_modeltuned_decision_t *d, size_t bytes)
{
    return d->splits || (0 != d->segsize && d->segsize < bytes);
}

/* coll_modeltuned_guard.c: the trace line of a call, and the test's delay of a pick. */
void mca_coll_modeltuned_call_extras(mca_coll_modeltuned_module_t *m, int kind,
                                     struct ompi_communicator_t *comm,
                                     const mca_coll_modeltuned_decision_t *d, size_t bytes,
                                     int root);

/* A call of kind `kind` that runs `d` (NULL: the previous component): its MPI_T counter, its trace
 * line at verbose 20 and, in the guard's tests only, a delay of the picks. */
static inline void mca_coll_modeltuned_count_call(mca_coll_modeltuned_module_t *m, int kind,
                                                  struct ompi_communicator_t *comm,
                                                  const mca_coll_modeltuned_decision_t *d,
                                                  size_t bytes, int root)
{
    if (OPAL_UNLIKELY(!mca_coll_modeltuned_calls_ready(m, kind))) /* a call no lookup decided */
        mca_coll_modeltuned_calls_prepare(m, kind);
    ++m->rows[kind].calls[NULL == d ? 0 : d->algorithm];
    if (OPAL_UNLIKELY(m->call_flags))
        mca_coll_modeltuned_call_extras(m, kind, comm, d, bytes, root);
}

/* A call as the guard runs it: its arguments (bcast: its buffer in rbuf; a collective with more
 * arguments than these fields: the others in `more`), and `run`, which counts and runs it with a
 * decision (NULL: the previous component). */
typedef struct mca_coll_modeltuned_call_t mca_coll_modeltuned_call_t;
struct mca_coll_modeltuned_call_t {
    mca_coll_modeltuned_module_t *module;
    struct ompi_communicator_t *comm;
    int kind; /* the row its counters are in */
    int root;
    size_t bytes;
    const void *sbuf;
    void *rbuf;
    mca_coll_modeltuned_count_t count;
    struct ompi_datatype_t *dtype;
    struct ompi_op_t *op;
    int (*run)(const mca_coll_modeltuned_call_t *call, const mca_coll_modeltuned_decision_t *d);
    const void *more; /* what else a collective's call needs, read by its own `run` */
};

/* Whether the guard takes this call of decision `d`: its countdown ran out (a watched pick's
 * window is due, or an unwatched decision wrapped around). Then mca_coll_modeltuned_guarded runs
 * the call, timed when it belongs to a window, and steps the guard. */
static inline bool mca_coll_modeltuned_guard_due(mca_coll_modeltuned_decision_t *d)
{
    return OPAL_UNLIKELY(0 == --d->countdown);
}
int mca_coll_modeltuned_guarded(const mca_coll_modeltuned_call_t *call,
                                mca_coll_modeltuned_decision_t *d);

/* The last step of every collective's decided call: the guard takes the call when its countdown
 * ran out, with the call record built from the designated initializers that follow; else
 * `unguarded` runs decision `d` (NULL: the previous component). A macro, so that the record is
 * built only where the guard takes the call, off the path of every other call. */
#define MCA_COLL_MODELTUNED_GUARD_OR_RUN(d, unguarded, ...)                                   \
    (OPAL_UNLIKELY(NULL != (d) && mca_coll_modeltuned_guard_due(d))                           \
         ? mca_coll_modeltuned_guarded(&(const mca_coll_modeltuned_call_t){__VA_ARGS__}, (d)) \
         : (unguarded))

/* The template of a block exchange: a collective whose every rank sends and receives blocks, with
 * arguments (sbuf, scount, sdtype, rbuf, rcount, rdtype, comm, module). A call is decided by one
 * block of its receive side in bytes (rcount elements of rdtype: the receive side's signature,
 * which every rank shares whatever datatypes each passes), as rooted at 0. A collective's file
 * gives its family, its call kind and `run`, its algorithms in their calling conventions. */
typedef int (*mca_coll_modeltuned_exchange_fn_t)(
    const void *sbuf, mca_coll_modeltuned_count_t scount, struct ompi_datatype_t *sdtype,
    void *rbuf, mca_coll_modeltuned_count_t rcount, struct ompi_datatype_t *rdtype,
    struct ompi_communicator_t *comm, mca_coll_base_module_t *module);
typedef struct {
    int op;   /* MT_OP_*: where the previous component's function is */
    int kind; /* MCA_COLL_MODELTUNED_KIND_* */
    int (*run)(const mca_coll_modeltuned_decision_t *d, const void *sbuf,
               mca_coll_modeltuned_count_t scount, struct ompi_datatype_t *sdtype, void *rbuf,
               mca_coll_modeltuned_count_t rcount, struct ompi_datatype_t *rdtype,
               struct ompi_communicator_t *comm, mca_coll_base_module_t *module);
} mca_coll_modeltuned_exchange_t;

/* What the guard's call record carries in `more`: the collective and the call's receive side. */
typedef struct {
    const mca_coll_modeltuned_exchange_t *collective;
    mca_coll_modeltuned_count_t rcount;
    struct ompi_datatype_t *rdtype;
} mca_coll_modeltuned_receive_side_t;

/* The call with decision `d` (NULL: the previous component), counted. */
static inline int mca_coll_modeltuned_exchange_with(
    const mca_coll_modeltuned_exchange_t *x, mca_coll_modeltuned_module_t *m,
    struct ompi_communicator_t *comm, const mca_coll_modeltuned_decision_t *d, const void *sbuf,
    mca_coll_modeltuned_count_t scount, struct ompi_datatype_t *sdtype, void *rbuf,
    mca_coll_modeltuned_count_t rcount, struct ompi_datatype_t *rdtype, size_t bytes)
{
    mca_coll_modeltuned_count_call(m, x->kind, comm, d, bytes, 0);
    if (OPAL_UNLIKELY(NULL == d))
        return (
            (mca_coll_modeltuned_exchange_fn_t) m->previous[x->op].fn)(sbuf, scount, sdtype, rbuf,
                                                                       rcount, rdtype, comm,
                                                                       m->previous[x->op].module);
    return x->run(d, sbuf, scount, sdtype, rbuf, rcount, rdtype, comm, &m->super);
}

static inline int mca_coll_modeltuned_exchange_call(const mca_coll_modeltuned_call_t *c,
                                                    const mca_coll_modeltuned_decision_t *d)
{
    const mca_coll_modeltuned_receive_side_t *receive = (const mca_coll_modeltuned_receive_side_t *)
                                                            c->more;
    return mca_coll_modeltuned_exchange_with(receive->collective, c->module, c->comm, d, c->sbuf,
                                             c->count, c->dtype, c->rbuf, receive->rcount,
                                             receive->rdtype, c->bytes);
}

/* The entry point's body: a call that keeps Open MPI's default handed back as its last act (see
 * mca_coll_modeltuned_hands_back), any other to `decided`, the collective's own function that runs
 * mca_coll_modeltuned_exchange_decided. `handed_back`: the collective leaves this call to the
 * previous component whatever its size, as do empty calls. */
static inline int
mca_coll_modeltuned_exchange(const mca_coll_modeltuned_exchange_t *x, bool handed_back,
                             mca_coll_modeltuned_exchange_fn_t decided, const void *sbuf,
                             mca_coll_modeltuned_count_t scount, struct ompi_datatype_t *sdtype,
                             void *rbuf, mca_coll_modeltuned_count_t rcount,
                             struct ompi_datatype_t *rdtype, struct ompi_communicator_t *comm,
                             mca_coll_base_module_t *module)
{
    mca_coll_modeltuned_module_t *m = (mca_coll_modeltuned_module_t *) module;
    const size_t bytes = (size_t) rcount * rdtype->super.size;
    const bool whole = 0 == bytes || handed_back;
    if (whole && OPAL_LIKELY(0 == m->call_flags && mca_coll_modeltuned_calls_ready(m, x->kind)))
        ++m->rows[x->kind].calls[0];
    else if (whole || !mca_coll_modeltuned_hands_back(m, x->kind, bytes, 0))
        return decided(sbuf, scount, sdtype, rbuf, rcount, rdtype, comm, module);
    return ((mca_coll_modeltuned_exchange_fn_t) m->previous[x->op].fn)(sbuf, scount, sdtype, rbuf,
                                                                       rcount, rdtype, comm,
                                                                       m->previous[x->op].module);
}

/* What `decided` runs: the call decided (`handed_back` as for mca_coll_modeltuned_exchange),
 * guarded, run, counted and traced. */
static inline int mca_coll_modeltuned_exchange_decided(
    const mca_coll_modeltuned_exchange_t *x, bool handed_back, const void *sbuf,
    mca_coll_modeltuned_count_t scount, struct ompi_datatype_t *sdtype, void *rbuf,
    mca_coll_modeltuned_count_t rcount, struct ompi_datatype_t *rdtype,
    struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_modeltuned_module_t *m = (mca_coll_modeltuned_module_t *) module;
    const size_t bytes = (size_t) rcount * rdtype->super.size;
    mca_coll_modeltuned_decision_t *d = 0 == bytes || handed_back
                                            ? NULL
                                            : mca_coll_modeltuned_lookup(m, comm, x->kind, bytes, 1,
                                                                         0);
    return MCA_COLL_MODELTUNED_GUARD_OR_RUN(
        d,
        mca_coll_modeltuned_exchange_with(x, m, comm, d, sbuf, scount, sdtype, rbuf, rcount, rdtype,
                                          bytes),
        .module = m, .comm = comm, .kind = x->kind, .bytes = bytes, .sbuf = sbuf, .rbuf = rbuf,
        .count = scount, .dtype = sdtype, .run = mca_coll_modeltuned_exchange_call,
        .more = &(const mca_coll_modeltuned_receive_side_t){.collective = x,
                                                            .rcount = rcount,
                                                            .rdtype = rdtype});
}

/* The template of a reduction: reduce, and allreduce as rooted at 0, with arguments (sbuf, rbuf,
 * count, dtype, op, root, comm, module). A collective's file gives its first call kind
 * (its calls are counted in that kind's row, decided by the kind of their operation), `run`, its
 * algorithms in their calling conventions, and `previous`, which hands a call to the previous
 * component. Its entry point stays its own: it hands a call back as its last act in its own
 * arguments (mca_coll_modeltuned_hands_back), and allreduce's has one fewer. */
typedef struct mca_coll_modeltuned_reduction_t {
    int kind; /* MCA_COLL_MODELTUNED_KIND_*, the collective's first */
    int (*run)(const mca_coll_modeltuned_decision_t *d, const void *sbuf, void *rbuf,
               mca_coll_modeltuned_count_t count, struct ompi_datatype_t *dtype,
               struct ompi_op_t *op, int root, struct ompi_communicator_t *comm,
               mca_coll_base_module_t *module);
    int (*previous)(mca_coll_modeltuned_module_t *m, const void *sbuf, void *rbuf,
                    mca_coll_modeltuned_count_t count, struct ompi_datatype_t *dtype,
                    struct ompi_op_t *op, int root, struct ompi_communicator_t *comm);
} mca_coll_modeltuned_reduction_t;

/* The call with decision `d` (NULL: the previous component), counted. */
static inline int mca_coll_modeltuned_reduction_with(
    const mca_coll_modeltuned_reduction_t *x, mca_coll_modeltuned_module_t *m,
    struct ompi_communicator_t *comm, const mca_coll_modeltuned_decision_t *d, const void *sbuf,
    void *rbuf, mca_coll_modeltuned_count_t count, struct ompi_datatype_t *dtype,
    struct ompi_op_t *op, int root, size_t bytes)
{
    mca_coll_modeltuned_count_call(m, x->kind, comm, d, bytes, root);
    if (OPAL_UNLIKELY(NULL == d))
        return x->previous(m, sbuf, rbuf, count, dtype, op, root, comm);
    return x->run(d, sbuf, rbuf, count, dtype, op, root, comm, &m->super);
}

/* What the guard's call record runs: the reduction in `more`. */
static inline int mca_coll_modeltuned_reduction_call(const mca_coll_modeltuned_call_t *c,
                                                     const mca_coll_modeltuned_decision_t *d)
{
    return mca_coll_modeltuned_reduction_with((const mca_coll_modeltuned_reduction_t *) c->more,
                                              c->module, c->comm, d, c->sbuf, c->rbuf, c->count,
                                              c->dtype, c->op, c->root, c->bytes);
}

/* What the collective's `<name>_decided` runs: a call that does not simply keep Open MPI's
 * default, decided, guarded, run, counted and traced. */
static inline int mca_coll_modeltuned_reduction_decided(
    const mca_coll_modeltuned_reduction_t *x, const void *sbuf, void *rbuf,
    mca_coll_modeltuned_count_t count, struct ompi_datatype_t *dtype, struct ompi_op_t *op,
    int root, struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_modeltuned_module_t *m = (mca_coll_modeltuned_module_t *) module;
    const size_t type_size = dtype->super.size, bytes = (size_t) count * type_size;
    mca_coll_modeltuned_decision_t *d = mca_coll_modeltuned_lookup_reduction(m, comm, x->kind, op,
                                                                             (size_t) count,
                                                                             type_size, root);
    return MCA_COLL_MODELTUNED_GUARD_OR_RUN(d,
                                            mca_coll_modeltuned_reduction_with(x, m, comm, d, sbuf,
                                                                               rbuf, count, dtype,
                                                                               op, root, bytes),
                                            .module = m, .comm = comm, .kind = x->kind,
                                            .root = root, .bytes = bytes, .sbuf = sbuf,
                                            .rbuf = rbuf, .count = count, .dtype = dtype, .op = op,
                                            .run = mca_coll_modeltuned_reduction_call, .more = x);
}

END_C_DECLS

#endif /* MCA_COLL_MODELTUNED_CALL_H */
