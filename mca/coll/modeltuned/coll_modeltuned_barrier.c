/*
 * MPI_Barrier: a cached lookup of the model's choice, then Open MPI's own implementation of it
 * through the dispatch table (coll_modeltuned_dispatch.c). A barrier moves no data: every call
 * is one size class (empty), decided as rooted at 0. Its table (the end of the file) is what the
 * rest of the component knows of it.
 */
#include "ompi_config.h"

#include "coll_modeltuned_call.h"
#include "ompi/mca/coll/base/coll_base_functions.h"

typedef int (*barrier_fn)(BARRIER_ARGS);

static int previous_barrier(mca_coll_modeltuned_module_t *m, struct ompi_communicator_t *comm)
{
    return MCA_COLL_MODELTUNED_PREVIOUS_FN(m, BARRIER, mca_coll_base_module_barrier_fn_t)(
        comm, MCA_COLL_MODELTUNED_PREVIOUS_MODULE(m, BARRIER));
}

/* The call with decision `d` (NULL: the previous component), counted. Every algorithm has the
 * one calling convention, MT_CALL_BARRIER. */
static inline int barrier_with(mca_coll_modeltuned_module_t *m, struct ompi_communicator_t *comm,
                               const mca_coll_modeltuned_decision_t *d)
{
    mca_coll_modeltuned_count_call(m, MCA_COLL_MODELTUNED_KIND_BARRIER, comm, d, 0, 0);
    if (OPAL_UNLIKELY(NULL == d))
        return previous_barrier(m, comm);
    return ((barrier_fn) d->fn)(comm, &m->super);
}

static int barrier_call(const mca_coll_modeltuned_call_t *c,
                        const mca_coll_modeltuned_decision_t *d)
{
    return barrier_with(c->module, c->comm, d);
}

/* A call that does not simply keep Open MPI's default: decided, guarded, run. */
static __attribute__((noinline)) int barrier_decided(struct ompi_communicator_t *comm,
                                                     mca_coll_base_module_t *module)
{
    mca_coll_modeltuned_module_t *m = (mca_coll_modeltuned_module_t *) module;
    mca_coll_modeltuned_decision_t *d = mca_coll_modeltuned_lookup(m, comm,
                                                                   MCA_COLL_MODELTUNED_KIND_BARRIER,
                                                                   0, 1, 0);
    return MCA_COLL_MODELTUNED_GUARD_OR_RUN(d, barrier_with(m, comm, d), .module = m, .comm = comm,
                                            .kind = MCA_COLL_MODELTUNED_KIND_BARRIER,
                                            .run = barrier_call);
}

static int barrier(struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    mca_coll_modeltuned_module_t *m = (mca_coll_modeltuned_module_t *) module;
    if (mca_coll_modeltuned_hands_back(m, MCA_COLL_MODELTUNED_KIND_BARRIER, 0, 0))
        return previous_barrier(m, comm);
    struct ompi_communicator_t
        *priv = mca_coll_modeltuned_runs_foreign(m, MCA_COLL_MODELTUNED_KIND_BARRIER, 0, 0);
    if (NULL != priv)
        return priv->c_coll->coll_barrier(priv, priv->c_coll->coll_barrier_module);
    return barrier_decided(comm, module);
}

const mca_coll_modeltuned_collective_t mca_coll_modeltuned_collective_barrier = {
    MCA_COLL_MODELTUNED_COLLECTIVE_FIELDS(barrier, BARRIER),
    .entry = (mca_coll_modeltuned_fn_t) barrier,
    .first_convention = MT_CALL_BARRIER,
    .last_convention = MT_CALL_BARRIER,
};
