/*
 * MPI_Bcast: a cached lookup of the model's choice, then Open MPI's own implementation of it.
 */
#include "ompi_config.h"

#include "coll_modeltuned.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/coll/base/coll_base_functions.h"

int mca_coll_modeltuned_bcast(void *buf, int count, struct ompi_datatype_t *dtype, int root,
                              struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_modeltuned_module_t *m = (mca_coll_modeltuned_module_t *) module;
    const mt_decision *d;
    size_t type_size = 0;

    ompi_datatype_type_size(dtype, &type_size);
    d = mca_coll_modeltuned_choice(m, comm, MT_OP_BCAST, 1, (size_t) count, type_size, root);
    if (OPAL_UNLIKELY(NULL == d)) goto fallback;
    ++mca_coll_modeltuned_component.calls[MT_OP_BCAST][d->algorithm];
    if (OPAL_UNLIKELY(mca_coll_modeltuned_component.verbose >= 20))
        mca_coll_modeltuned_trace(comm, MT_OP_BCAST, (size_t) count * type_size, root, d);

    switch (d->algorithm) {
    case 1: return ompi_coll_base_bcast_intra_basic_linear(buf, count, dtype, root, comm, module);
    case 2: return ompi_coll_base_bcast_intra_chain(buf, count, dtype, root, comm, module,
                                                    d->segsize, d->fanout);
    case 3: return ompi_coll_base_bcast_intra_pipeline(buf, count, dtype, root, comm, module,
                                                       d->segsize);
    case 4: return ompi_coll_base_bcast_intra_split_bintree(buf, count, dtype, root, comm, module,
                                                            d->segsize);
    case 5: return ompi_coll_base_bcast_intra_bintree(buf, count, dtype, root, comm, module,
                                                      d->segsize);
    case 6: return ompi_coll_base_bcast_intra_binomial(buf, count, dtype, root, comm, module,
                                                       d->segsize);
    case 7: return ompi_coll_base_bcast_intra_knomial(buf, count, dtype, root, comm, module,
                                                      d->segsize, d->fanout);
    case 8: return ompi_coll_base_bcast_intra_scatter_allgather(buf, count, dtype, root, comm,
                                                                module, d->segsize);
    case 9: return ompi_coll_base_bcast_intra_scatter_allgather_ring(buf, count, dtype, root, comm,
                                                                     module, d->segsize);
    default: break;  /* unreachable: the model only returns Open MPI's algorithm numbers */
    }
fallback:
    ++mca_coll_modeltuned_component.calls[MT_OP_BCAST][0];
    if (OPAL_UNLIKELY(mca_coll_modeltuned_component.verbose >= 20))
        mca_coll_modeltuned_trace(comm, MT_OP_BCAST, (size_t) count * type_size, root, NULL);
    return m->previous_bcast(buf, count, dtype, root, comm, m->previous_bcast_module);
}
