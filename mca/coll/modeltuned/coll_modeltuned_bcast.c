/*
 * MPI_Bcast: a cached lookup of the model's choice, then Open MPI's own implementation of it
 * through the dispatch table (coll_modeltuned_dispatch.c), on a byte view of the buffer when the
 * choice cuts the message (coll_modeltuned_view.c).
 */
#include "ompi_config.h"

#include "coll_modeltuned_call.h"
#include "ompi/datatype/ompi_datatype.h"

int mca_coll_modeltuned_bcast(void *buf, int count, struct ompi_datatype_t *dtype, int root,
                              struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_modeltuned_module_t *m = (mca_coll_modeltuned_module_t *) module;
    size_t type_size = 0;

    ompi_datatype_type_size(dtype, &type_size);
    const size_t bytes = (size_t) count * type_size;
    /* Every rank has the same type signature, so all see an empty message: nothing to move
     * (Open MPI 4.1.4's k-nomial writes outside zero-size buffers). */
    if (0 == bytes)
        return OMPI_SUCCESS;
    /* Decided on bytes: the same on every rank whatever datatype it passed. */
    const mca_coll_modeltuned_decision_t *d;
    d = mca_coll_modeltuned_lookup(m, comm, MCA_COLL_MODELTUNED_KIND_BCAST, bytes, 1, root);
    if (OPAL_UNLIKELY(NULL == d))
        goto fallback;
    if (!mca_coll_modeltuned_cuts(d, bytes)) {
        mca_coll_modeltuned_count_call(m, MCA_COLL_MODELTUNED_KIND_BCAST, comm, d, bytes, root);
        return mca_coll_modeltuned_run_bcast(d, buf, count, dtype, root, comm, module);
    }
    /* It cuts the message: every rank runs it on bytes. */
    mca_coll_modeltuned_view_t v;
    const bool is_root = ompi_comm_rank(comm) == root;
    int rc = mca_coll_modeltuned_bcast_view(&v, buf, count, dtype, bytes, is_root);
    if (OMPI_ERR_NOT_SUPPORTED == rc) {
        mca_coll_modeltuned_bcast_view_done(&v, buf, count, dtype, is_root, rc);
        goto fallback;
    }
    if (OMPI_SUCCESS == rc) {
        mca_coll_modeltuned_count_call(m, MCA_COLL_MODELTUNED_KIND_BCAST, comm, d, bytes, root);
        rc = mca_coll_modeltuned_run_bcast(d, v.buf, v.count, v.dtype, root, comm, module);
    }
    return mca_coll_modeltuned_bcast_view_done(&v, buf, count, dtype, is_root, rc);
fallback:
    mca_coll_modeltuned_count_call(m, MCA_COLL_MODELTUNED_KIND_BCAST, comm, NULL, bytes, root);
    return m->previous_bcast(buf, count, dtype, root, comm, m->previous_bcast_module);
}
