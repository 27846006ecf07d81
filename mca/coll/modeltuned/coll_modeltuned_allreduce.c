/*
 * MPI_Allreduce: a cached lookup of the model's choice, then Open MPI's own implementation of it
 * through the dispatch table (coll_modeltuned_dispatch.c). As for reduce: non-commutative
 * operations only get order-preserving algorithms, user-defined ones only whole-message algorithms.
 * Allreduce has no root: every call is decided as rooted at 0.
 */
#include "ompi_config.h"

#include "coll_modeltuned_call.h"
#include "ompi/datatype/ompi_datatype.h"

/* The call with decision `d` (NULL: the previous component), counted. */
static inline int allreduce_with(mca_coll_modeltuned_module_t *m, struct ompi_communicator_t *comm,
                                 const mca_coll_modeltuned_decision_t *d, const void *sbuf,
                                 void *rbuf, int count, struct ompi_datatype_t *dtype,
                                 struct ompi_op_t *op, size_t bytes)
{
    mca_coll_modeltuned_count_call(m, MCA_COLL_MODELTUNED_KIND_ALLREDUCE_INTRINSIC, comm, d, bytes,
                                   0);
    if (OPAL_UNLIKELY(NULL == d))
        return m->previous_allreduce(sbuf, rbuf, count, dtype, op, comm,
                                     m->previous_allreduce_module);
    return mca_coll_modeltuned_run_allreduce(d, sbuf, rbuf, count, dtype, op, comm, &m->super);
}

static int allreduce_call(const mca_coll_modeltuned_call_t *c,
                          const mca_coll_modeltuned_decision_t *d)
{
    return allreduce_with(c->module, c->comm, d, c->sbuf, c->rbuf, c->count, c->dtype, c->op,
                          c->bytes);
}

int mca_coll_modeltuned_allreduce(const void *sbuf, void *rbuf, int count,
                                  struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                  struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_modeltuned_module_t *m = (mca_coll_modeltuned_module_t *) module;
    size_t type_size = 0;

    ompi_datatype_type_size(dtype, &type_size);
    const size_t bytes = (size_t) count * type_size;
    if (0 == bytes) /* the same type signature everywhere: all empty. Not handed on: tuned's
                       algorithms write into the buffers of 7 elements of a zero-size type */
        return OMPI_SUCCESS;
    mca_coll_modeltuned_decision_t
        *d = mca_coll_modeltuned_lookup_reduction(m, comm,
                                                  MCA_COLL_MODELTUNED_KIND_ALLREDUCE_INTRINSIC, op,
                                                  (size_t) count, type_size, 0);
    if (OPAL_UNLIKELY(NULL != d && mca_coll_modeltuned_guard_due(d))) {
        const mca_coll_modeltuned_call_t call =
            {m,    comm,          MCA_COLL_MODELTUNED_KIND_ALLREDUCE_INTRINSIC,
             0,    bytes,         sbuf,
             rbuf, count,         dtype,
             op,   allreduce_call};
        return mca_coll_modeltuned_guarded(&call, d);
    }
    return allreduce_with(m, comm, d, sbuf, rbuf, count, dtype, op, bytes);
}
