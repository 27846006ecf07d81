/*
 * MPI_Bcast: a cached lookup of the model's choice, then Open MPI's own implementation of it
 * through the dispatch table (coll_modeltuned_dispatch.c).
 */
#include "ompi_config.h"

#include "coll_modeltuned.h"
#include "ompi/datatype/ompi_datatype.h"

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
    return mca_coll_modeltuned_run_bcast(d, buf, count, dtype, root, comm, module);
fallback:
    ++mca_coll_modeltuned_component.calls[MT_OP_BCAST][0];
    if (OPAL_UNLIKELY(mca_coll_modeltuned_component.verbose >= 20))
        mca_coll_modeltuned_trace(comm, MT_OP_BCAST, (size_t) count * type_size, root, NULL);
    return m->previous_bcast(buf, count, dtype, root, comm, m->previous_bcast_module);
}
