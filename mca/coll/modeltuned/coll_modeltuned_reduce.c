/*
 * MPI_Reduce: a cached lookup of the model's choice, then Open MPI's own implementation of it
 * through the dispatch table (coll_modeltuned_dispatch.c). Non-commutative operations only get
 * order-preserving algorithms, user-defined ones only whole-message algorithms; from the template
 * of the reductions (coll_modeltuned_call.h). Its table (the end of the file) is what the rest of
 * the component knows of it.
 */
#include "ompi_config.h"

#include "coll_modeltuned_call.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/coll/base/coll_base_functions.h"

/* No limit on outstanding segment sends, as tuned's default (coll_tuned_reduce_max_requests 0). */
#define MAX_OUTSTANDING_REQUESTS 0

typedef int (*reduce_fn)(REDUCE_ARGS);
typedef int (*reduce_segsize_fn)(REDUCE_ARGS, uint32_t segsize, int max_requests);
typedef int (*reduce_segsize_fanout_fn)(REDUCE_ARGS, uint32_t segsize, int fanout,
                                        int max_requests);
typedef int (*reduce_segsize_requests_radix_fn)(REDUCE_ARGS, uint32_t segsize, int max_requests,
                                                int radix);

/* The decided algorithm in its calling convention, with the decision's segment size and fan-out. */
static int run(const mca_coll_modeltuned_decision_t *d, const void *sbuf, void *rbuf,
               mca_coll_modeltuned_count_t count, struct ompi_datatype_t *dtype,
               struct ompi_op_t *op, int root, struct ompi_communicator_t *comm,
               mca_coll_base_module_t *module)
{
    switch (d->convention) {
    case MT_CALL_REDUCE:
        return ((reduce_fn) d->fn)(sbuf, rbuf, count, dtype, op, root, comm, module);
    case MT_CALL_REDUCE_SEGSIZE_REQUESTS:
        return ((reduce_segsize_fn) d->fn)(sbuf, rbuf, count, dtype, op, root, comm, module,
                                           d->segsize, MAX_OUTSTANDING_REQUESTS);
    case MT_CALL_REDUCE_SEGSIZE_FANOUT_REQUESTS:
        return ((reduce_segsize_fanout_fn) d->fn)(sbuf, rbuf, count, dtype, op, root, comm, module,
                                                  d->segsize, d->fanout, MAX_OUTSTANDING_REQUESTS);
    case MT_CALL_REDUCE_SEGSIZE_REQUESTS_RADIX:
        return ((reduce_segsize_requests_radix_fn) d->fn)(sbuf, rbuf, count, dtype, op, root, comm,
                                                          module, d->segsize,
                                                          MAX_OUTSTANDING_REQUESTS, d->fanout);
    }
    return OMPI_ERR_NOT_SUPPORTED; /* unreachable: only resolved algorithms are ever allowed */
}

/* The previous component's function, in the template's arguments. */
static inline int previous_reduce(mca_coll_modeltuned_module_t *m, const void *sbuf, void *rbuf,
                                  mca_coll_modeltuned_count_t count, struct ompi_datatype_t *dtype,
                                  struct ompi_op_t *op, int root, struct ompi_communicator_t *comm)
{
    return MCA_COLL_MODELTUNED_PREVIOUS_FN(m, REDUCE, mca_coll_base_module_reduce_fn_t)(
        sbuf, rbuf, count, dtype, op, root, comm, MCA_COLL_MODELTUNED_PREVIOUS_MODULE(m, REDUCE));
}

static const mca_coll_modeltuned_reduction_t reduction = {.kind = MCA_COLL_MODELTUNED_KIND_REDUCE,
                                                          .run = run,
                                                          .previous = previous_reduce};

/* A call that does not simply keep Open MPI's default: decided, guarded, run. */
static __attribute__((noinline)) int
reduce_decided(const void *sbuf, void *rbuf, mca_coll_modeltuned_count_t count,
               struct ompi_datatype_t *dtype, struct ompi_op_t *op, int root,
               struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    return mca_coll_modeltuned_reduction_decided(&reduction, sbuf, rbuf, count, dtype, op, root,
                                                 comm, module);
}

static int reduce(const void *sbuf, void *rbuf, mca_coll_modeltuned_count_t count,
                  struct ompi_datatype_t *dtype, struct ompi_op_t *op, int root,
                  struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_modeltuned_module_t *m = (mca_coll_modeltuned_module_t *) module;
    const size_t bytes = (size_t) count * dtype->super.size;
    if (0 == bytes)
        return OMPI_SUCCESS; /* the same type signature everywhere: all empty */
    const int kind = mca_coll_modeltuned_reduction_kind(MCA_COLL_MODELTUNED_KIND_REDUCE, op);
    if (mca_coll_modeltuned_hands_back(m, kind, bytes, root))
        return previous_reduce(m, sbuf, rbuf, count, dtype, op, root, comm);
    struct ompi_communicator_t *priv = mca_coll_modeltuned_runs_foreign(m, kind, bytes, root);
    if (NULL != priv)
        return priv->c_coll->coll_reduce(sbuf, rbuf, count, dtype, op, root, priv,
                                         priv->c_coll->coll_reduce_module);
    return reduce_decided(sbuf, rbuf, count, dtype, op, root, comm, module);
}

const mca_coll_modeltuned_collective_t mca_coll_modeltuned_collective_reduce = {
    MCA_COLL_MODELTUNED_COLLECTIVE_FIELDS(reduce, REDUCE),
    .entry = (mca_coll_modeltuned_fn_t) reduce,
    .first_convention = MT_CALL_REDUCE,
    .last_convention = MT_CALL_REDUCE_SEGSIZE_REQUESTS_RADIX,
};
