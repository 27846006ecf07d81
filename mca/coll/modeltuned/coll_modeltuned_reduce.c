/*
 * MPI_Reduce: a cached lookup of the model's choice, then Open MPI's own implementation of it
 * through the dispatch table (coll_modeltuned_dispatch.c). Non-commutative operations only get
 * order-preserving algorithms, user-defined ones only whole-message algorithms.
 */
#include "ompi_config.h"

#include "coll_modeltuned_call.h"
#include "ompi/datatype/ompi_datatype.h"

int mca_coll_modeltuned_reduce(const void *sbuf, void *rbuf, int count,
                               struct ompi_datatype_t *dtype, struct ompi_op_t *op, int root,
                               struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_modeltuned_module_t *m = (mca_coll_modeltuned_module_t *) module;
    const mca_coll_modeltuned_decision_t *d;
    size_t type_size = 0;

    ompi_datatype_type_size(dtype, &type_size);
    const size_t bytes = (size_t) count * type_size;
    if (0 == bytes)
        return OMPI_SUCCESS; /* the same type signature everywhere: all empty */
    d = mca_coll_modeltuned_lookup_reduction(m, comm, MCA_COLL_MODELTUNED_KIND_REDUCE_INTRINSIC, op,
                                             (size_t) count, type_size, root);
    mca_coll_modeltuned_count_call(m, MCA_COLL_MODELTUNED_KIND_REDUCE_INTRINSIC, comm, d, bytes,
                                   root);
    if (OPAL_UNLIKELY(NULL == d))
        return m->previous_reduce(sbuf, rbuf, count, dtype, op, root, comm,
                                  m->previous_reduce_module);
    return mca_coll_modeltuned_run_reduce(d, sbuf, rbuf, count, dtype, op, root, comm, module);
}
