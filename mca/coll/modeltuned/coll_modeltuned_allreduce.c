/*
 * MPI_Allreduce: a cached lookup of the model's choice, then Open MPI's own implementation of it
 * through the dispatch table (coll_modeltuned_dispatch.c). As for reduce: non-commutative
 * operations only get order-preserving algorithms, user-defined ones only whole-message algorithms.
 * Allreduce has no root: every call is decided as rooted at 0, from the template of the reductions
 * (coll_modeltuned_call.h). Its table (the end of the file) is what the rest of the component knows
 * of it.
 */
#include "ompi_config.h"

#include "coll_modeltuned_call.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/coll/base/coll_base_functions.h"

typedef int (*allreduce_fn)(ALLREDUCE_ARGS);
typedef int (*allreduce_segsize_fn)(ALLREDUCE_ARGS, uint32_t segsize);

/* The decided algorithm in its calling convention, with the decision's segment size. */
static int run(const mca_coll_modeltuned_decision_t *d, const void *sbuf, void *rbuf,
               mca_coll_modeltuned_count_t count, struct ompi_datatype_t *dtype,
               struct ompi_op_t *op, struct ompi_communicator_t *comm,
               mca_coll_base_module_t *module)
{
    switch (d->convention) {
    case MT_CALL_ALLREDUCE:
        return ((allreduce_fn) d->fn)(sbuf, rbuf, count, dtype, op, comm, module);
    case MT_CALL_ALLREDUCE_SEGSIZE:
        return ((allreduce_segsize_fn) d->fn)(sbuf, rbuf, count, dtype, op, comm, module,
                                              d->segsize);
    }
    return OMPI_ERR_NOT_SUPPORTED; /* unreachable: only resolved algorithms are ever allowed */
}

/* The previous component's function, in the template's arguments. */
static inline int previous_allreduce(mca_coll_modeltuned_module_t *m, const void *sbuf, void *rbuf,
                                     mca_coll_modeltuned_count_t count,
                                     struct ompi_datatype_t *dtype, struct ompi_op_t *op, int root,
                                     struct ompi_communicator_t *comm)
{
    (void) root; /* 0: allreduce is decided as rooted at 0 */
    return MCA_COLL_MODELTUNED_PREVIOUS_FN(m, ALLREDUCE, mca_coll_base_module_allreduce_fn_t)(
        sbuf, rbuf, count, dtype, op, comm, MCA_COLL_MODELTUNED_PREVIOUS_MODULE(m, ALLREDUCE));
}

/* The decided algorithm in its calling convention; allreduce has no root. */
static int run_rooted(const mca_coll_modeltuned_decision_t *d, const void *sbuf, void *rbuf,
                      mca_coll_modeltuned_count_t count, struct ompi_datatype_t *dtype,
                      struct ompi_op_t *op, int root, struct ompi_communicator_t *comm,
                      mca_coll_base_module_t *module)
{
    (void) root;
    return run(d, sbuf, rbuf, count, dtype, op, comm, module);
}

static const mca_coll_modeltuned_reduction_t reduction =
    {.kind = MCA_COLL_MODELTUNED_KIND_ALLREDUCE, .run = run_rooted, .previous = previous_allreduce};

/* A call that does not simply keep Open MPI's default: decided, guarded, run. */
static __attribute__((noinline)) int
allreduce_decided(const void *sbuf, void *rbuf, mca_coll_modeltuned_count_t count,
                  struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                  struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    return mca_coll_modeltuned_reduction_decided(&reduction, sbuf, rbuf, count, dtype, op, 0, comm,
                                                 module);
}

static int allreduce(const void *sbuf, void *rbuf, mca_coll_modeltuned_count_t count,
                     struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                     struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_modeltuned_module_t *m = (mca_coll_modeltuned_module_t *) module;
    const size_t bytes = (size_t) count * dtype->super.size;
    if (0 == bytes) /* the same type signature everywhere: all empty. Not handed on: tuned's
                       algorithms write into the buffers of 7 elements of a zero-size type */
        return OMPI_SUCCESS;
    const int kind = mca_coll_modeltuned_reduction_kind(MCA_COLL_MODELTUNED_KIND_ALLREDUCE, op);
    if (mca_coll_modeltuned_hands_back(m, kind, bytes, 0))
        return previous_allreduce(m, sbuf, rbuf, count, dtype, op, 0, comm);
    struct ompi_communicator_t *priv = mca_coll_modeltuned_runs_foreign(m, kind, bytes, 0);
    if (NULL != priv)
        return priv->c_coll->coll_allreduce(sbuf, rbuf, count, dtype, op, priv,
                                            priv->c_coll->coll_allreduce_module);
    return allreduce_decided(sbuf, rbuf, count, dtype, op, comm, module);
}

const mca_coll_modeltuned_collective_t mca_coll_modeltuned_collective_allreduce = {
    MCA_COLL_MODELTUNED_COLLECTIVE_FIELDS(allreduce, ALLREDUCE),
    .entry = (mca_coll_modeltuned_fn_t) allreduce,
    .first_convention = MT_CALL_ALLREDUCE,
    .last_convention = MT_CALL_ALLREDUCE_SEGSIZE,
};
