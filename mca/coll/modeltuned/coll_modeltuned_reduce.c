/*
 * MPI_Reduce: a cached lookup of the model's choice, then Open MPI's own implementation of it.
 * Non-commutative operations only get order-preserving algorithms, user-defined ones only
 * whole-message algorithms.
 */
#include "ompi_config.h"

#include "coll_modeltuned.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/coll/base/coll_base_functions.h"
#include "ompi/op/op.h"

/* No limit on outstanding segment sends, as tuned's default (coll_tuned_reduce_max_requests 0). */
#define MAX_OUTSTANDING_REQUESTS 0

static void count_call(struct ompi_communicator_t *comm, const mt_decision *d, size_t bytes, int root)
{
    ++mca_coll_modeltuned_component.calls[MT_OP_REDUCE][d->algorithm];
    if (OPAL_UNLIKELY(mca_coll_modeltuned_component.verbose >= 20))
        mca_coll_modeltuned_trace(comm, MT_OP_REDUCE, bytes, root, d);
}

/* Runs decision `d` on (sbuf, rbuf, count, dtype). */
static int run(const mt_decision *d, const void *sbuf, void *rbuf, int count,
               struct ompi_datatype_t *dtype, struct ompi_op_t *op, int root,
               struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    switch (d->algorithm) {
    case 1: return ompi_coll_base_reduce_intra_basic_linear(sbuf, rbuf, count, dtype, op, root,
                                                            comm, module);
    case 2: return ompi_coll_base_reduce_intra_chain(sbuf, rbuf, count, dtype, op, root, comm,
                                                     module, d->segsize, d->fanout,
                                                     MAX_OUTSTANDING_REQUESTS);
    case 3: return ompi_coll_base_reduce_intra_pipeline(sbuf, rbuf, count, dtype, op, root, comm,
                                                        module, d->segsize,
                                                        MAX_OUTSTANDING_REQUESTS);
    case 4: return ompi_coll_base_reduce_intra_binary(sbuf, rbuf, count, dtype, op, root, comm,
                                                      module, d->segsize, MAX_OUTSTANDING_REQUESTS);
    case 5: return ompi_coll_base_reduce_intra_binomial(sbuf, rbuf, count, dtype, op, root, comm,
                                                        module, d->segsize,
                                                        MAX_OUTSTANDING_REQUESTS);
    case 6: return ompi_coll_base_reduce_intra_in_order_binary(sbuf, rbuf, count, dtype, op, root,
                                                               comm, module, d->segsize,
                                                               MAX_OUTSTANDING_REQUESTS);
    case 7: return ompi_coll_base_reduce_intra_redscat_gather(sbuf, rbuf, count, dtype, op, root,
                                                              comm, module);
    default: break;  /* unreachable: the model only returns Open MPI's algorithm numbers */
    }
    return OMPI_ERR_NOT_SUPPORTED;
}

int mca_coll_modeltuned_reduce(const void *sbuf, void *rbuf, int count,
                               struct ompi_datatype_t *dtype, struct ompi_op_t *op, int root,
                               struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_modeltuned_module_t *m = (mca_coll_modeltuned_module_t *) module;
    const mt_decision *d;
    size_t type_size = 0;

    ompi_datatype_type_size(dtype, &type_size);
    const size_t bytes = (size_t) count * type_size;
    if (0 == bytes) return OMPI_SUCCESS;  /* the same type signature everywhere: all empty */
    /* Decided on what every rank shares. An intrinsic operation comes with a predefined datatype
     * (Open MPI refuses others), the same on every rank. A user-defined one sees each rank's own
     * datatype, which may differ between ranks: decided on bytes, whole-message algorithms only. */
    if (!ompi_op_is_commute(op)) {
        d = mca_coll_modeltuned_choice(m, comm, MCA_COLL_MODELTUNED_REDUCE_ORDERED, bytes, 1, root);
    } else if (!ompi_op_is_intrinsic(op)) {
        d = mca_coll_modeltuned_choice(m, comm, MCA_COLL_MODELTUNED_REDUCE_USER, bytes, 1, root);
    } else {
        d = mca_coll_modeltuned_choice(m, comm, MCA_COLL_MODELTUNED_REDUCE_INTRINSIC, (size_t) count,
                                       type_size, root);
    }
    if (OPAL_UNLIKELY(NULL == d)) goto fallback;
    count_call(comm, d, bytes, root);
    return run(d, sbuf, rbuf, count, dtype, op, root, comm, module);

fallback:
    ++mca_coll_modeltuned_component.calls[MT_OP_REDUCE][0];
    if (OPAL_UNLIKELY(mca_coll_modeltuned_component.verbose >= 20))
        mca_coll_modeltuned_trace(comm, MT_OP_REDUCE, bytes, root, NULL);
    return m->previous_reduce(sbuf, rbuf, count, dtype, op, root, comm, m->previous_reduce_module);
}
