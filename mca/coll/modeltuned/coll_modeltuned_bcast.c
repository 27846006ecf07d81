/*
 * MPI_Bcast: a cached lookup of the model's choice, then Open MPI's own implementation of it
 * through the dispatch table (coll_modeltuned_dispatch.c), on a byte view of the buffer when the
 * choice cuts the message (coll_modeltuned_view.c). Its table (the end of the file) is what the
 * rest of the component knows of it.
 */
#include "ompi_config.h"

#include "coll_modeltuned_call.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/coll/base/coll_base_functions.h"

typedef int (*bcast_fn)(BCAST_ARGS);
typedef int (*bcast_segsize_fn)(BCAST_ARGS, uint32_t segsize);
typedef int (*bcast_segsize_fanout_fn)(BCAST_ARGS, uint32_t segsize, int32_t fanout);

/* The decided algorithm in its calling convention, with the decision's segment size and fan-out. */
static int run(const mca_coll_modeltuned_decision_t *d, void *buf,
               mca_coll_modeltuned_count_t count, struct ompi_datatype_t *dtype, int root,
               struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    switch (d->convention) {
    case MT_CALL_BCAST:
        return ((bcast_fn) d->fn)(buf, count, dtype, root, comm, module);
    case MT_CALL_BCAST_SEGSIZE:
        return ((bcast_segsize_fn) d->fn)(buf, count, dtype, root, comm, module, d->segsize);
    case MT_CALL_BCAST_SEGSIZE_FANOUT:
        return ((bcast_segsize_fanout_fn) d->fn)(buf, count, dtype, root, comm, module, d->segsize,
                                                 d->fanout);
    }
    return OMPI_ERR_NOT_SUPPORTED; /* unreachable: only resolved algorithms are ever allowed */
}

static int previous_bcast(mca_coll_modeltuned_module_t *m, struct ompi_communicator_t *comm,
                          void *buf, mca_coll_modeltuned_count_t count,
                          struct ompi_datatype_t *dtype, int root, size_t bytes)
{
    mca_coll_modeltuned_count_call(m, MCA_COLL_MODELTUNED_KIND_BCAST, comm, NULL, bytes, root);
    return MCA_COLL_MODELTUNED_PREVIOUS_FN(m, BCAST, mca_coll_base_module_bcast_fn_t)(
        buf, count, dtype, root, comm, MCA_COLL_MODELTUNED_PREVIOUS_MODULE(m, BCAST));
}

/* A decision that cuts the message runs on bytes on every rank (packed where the layout is not
 * contiguous); one too large for an mca_coll_modeltuned_count_t count of bytes is handed back, on
 * every rank alike. */
static int bcast_cut(mca_coll_modeltuned_module_t *m, struct ompi_communicator_t *comm,
                     const mca_coll_modeltuned_decision_t *d, void *buf,
                     mca_coll_modeltuned_count_t count, struct ompi_datatype_t *dtype, int root,
                     size_t bytes)
{
    mca_coll_modeltuned_view_t v;
    const bool is_root = ompi_comm_rank(comm) == root;
    int rc = mca_coll_modeltuned_bcast_view(&v, buf, count, dtype, bytes, is_root);
    if (OMPI_ERR_NOT_SUPPORTED == rc) {
        mca_coll_modeltuned_bcast_view_done(&v, buf, count, dtype, is_root, rc);
        return previous_bcast(m, comm, buf, count, dtype, root, bytes);
    }
    if (OMPI_SUCCESS == rc) {
        mca_coll_modeltuned_count_call(m, MCA_COLL_MODELTUNED_KIND_BCAST, comm, d, bytes, root);
        rc = run(d, v.buf, v.count, v.dtype, root, comm, &m->super);
    }
    return mca_coll_modeltuned_bcast_view_done(&v, buf, count, dtype, is_root, rc);
}

/* The call with decision `d` (NULL: the previous component), counted. */
static inline int bcast_with(mca_coll_modeltuned_module_t *m, struct ompi_communicator_t *comm,
                             const mca_coll_modeltuned_decision_t *d, void *buf,
                             mca_coll_modeltuned_count_t count, struct ompi_datatype_t *dtype,
                             int root, size_t bytes)
{
    if (OPAL_UNLIKELY(NULL == d))
        return previous_bcast(m, comm, buf, count, dtype, root, bytes);
    if (mca_coll_modeltuned_cuts(d, bytes))
        return bcast_cut(m, comm, d, buf, count, dtype, root, bytes);
    mca_coll_modeltuned_count_call(m, MCA_COLL_MODELTUNED_KIND_BCAST, comm, d, bytes, root);
    return run(d, buf, count, dtype, root, comm, &m->super);
}

static int bcast_call(const mca_coll_modeltuned_call_t *c, const mca_coll_modeltuned_decision_t *d)
{
    return bcast_with(c->module, c->comm, d, c->rbuf, c->count, c->dtype, c->root, c->bytes);
}

/* A call that does not simply keep Open MPI's default: decided (on bytes, the same on every rank
 * whatever datatype it passed), guarded, run. */
static __attribute__((noinline)) int bcast_decided(void *buf, mca_coll_modeltuned_count_t count,
                                                   struct ompi_datatype_t *dtype, int root,
                                                   struct ompi_communicator_t *comm,
                                                   mca_coll_base_module_t *module)
{
    mca_coll_modeltuned_module_t *m = (mca_coll_modeltuned_module_t *) module;
    const size_t bytes = (size_t) count * dtype->super.size;
    mca_coll_modeltuned_decision_t *d = mca_coll_modeltuned_lookup(m, comm,
                                                                   MCA_COLL_MODELTUNED_KIND_BCAST,
                                                                   bytes, 1, root);
    return MCA_COLL_MODELTUNED_GUARD_OR_RUN(d,
                                            bcast_with(m, comm, d, buf, count, dtype, root, bytes),
                                            .module = m, .comm = comm,
                                            .kind = MCA_COLL_MODELTUNED_KIND_BCAST, .root = root,
                                            .bytes = bytes, .rbuf = buf, .count = count,
                                            .dtype = dtype, .run = bcast_call);
}

static int bcast(void *buf, mca_coll_modeltuned_count_t count, struct ompi_datatype_t *dtype,
                 int root, struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_modeltuned_module_t *m = (mca_coll_modeltuned_module_t *) module;
    const size_t bytes = (size_t) count * dtype->super.size;
    /* Every rank has the same type signature, so all see an empty message: nothing to move
     * (Open MPI 4.1.4's k-nomial writes outside zero-size buffers). */
    if (0 == bytes)
        return OMPI_SUCCESS;
    if (mca_coll_modeltuned_hands_back(m, MCA_COLL_MODELTUNED_KIND_BCAST, bytes, root))
        return MCA_COLL_MODELTUNED_PREVIOUS_FN(m, BCAST, mca_coll_base_module_bcast_fn_t)(
            buf, count, dtype, root, comm, MCA_COLL_MODELTUNED_PREVIOUS_MODULE(m, BCAST));
    struct ompi_communicator_t
        *priv = mca_coll_modeltuned_runs_foreign(m, MCA_COLL_MODELTUNED_KIND_BCAST, bytes, root);
    if (NULL != priv)
        return priv->c_coll->coll_bcast(buf, count, dtype, root, priv,
                                        priv->c_coll->coll_bcast_module);
    return bcast_decided(buf, count, dtype, root, comm, module);
}

const mca_coll_modeltuned_collective_t mca_coll_modeltuned_collective_bcast = {
    MCA_COLL_MODELTUNED_COLLECTIVE_FIELDS(bcast, BCAST),
    .entry = (mca_coll_modeltuned_fn_t) bcast,
    .first_convention = MT_CALL_BCAST,
    .last_convention = MT_CALL_BCAST_SEGSIZE_FANOUT,
};
