/*
 * The dispatch table, generated at open from the model's registry (mt_algorithm_at): each
 * algorithm's ompi_coll_base_* function, found by its symbol, and the call through it with the
 * decision's segment size and fan-out in the algorithm's calling convention (MT_CALL_*).
 */
#include "ompi_config.h"

#include <dlfcn.h>
#include <stdlib.h>

#include "coll_modeltuned.h"
#include "ompi/mca/coll/base/coll_base_functions.h"

/* No limit on outstanding segment sends, as tuned's default (coll_tuned_reduce_max_requests 0). */
#define MAX_OUTSTANDING_REQUESTS 0

typedef int (*bcast_fn)(BCAST_ARGS);
typedef int (*bcast_segsize_fn)(BCAST_ARGS, uint32_t segsize);
typedef int (*bcast_segsize_fanout_fn)(BCAST_ARGS, uint32_t segsize, int32_t fanout);
typedef int (*reduce_fn)(REDUCE_ARGS);
typedef int (*reduce_segsize_fn)(REDUCE_ARGS, uint32_t segsize, int max_requests);
typedef int (*reduce_segsize_fanout_fn)(REDUCE_ARGS, uint32_t segsize, int fanout,
                                        int max_requests);
typedef int (*allreduce_fn)(ALLREDUCE_ARGS);
typedef int (*allreduce_segsize_fn)(ALLREDUCE_ARGS, uint32_t segsize);

/* Whether a calling convention (MT_CALL_*) is one of `op`'s. */
static bool convention_fits(int op, int convention)
{
    switch (op) {
    case MT_OP_BCAST:
        return convention >= MT_CALL_BCAST && convention <= MT_CALL_BCAST_SEGSIZE_FANOUT;
    case MT_OP_REDUCE:
        return convention >= MT_CALL_REDUCE && convention <= MT_CALL_REDUCE_SEGSIZE_FANOUT_REQUESTS;
    default:
        return convention >= MT_CALL_ALLREDUCE && convention <= MT_CALL_ALLREDUCE_SEGSIZE;
    }
}

/* Each function is looked up by name in the scope of this object, which links libmpi.so.40 (glibc's
 * RTLD_DEFAULT searches the caller's dependencies too, also where libmpi is not RTLD_GLOBAL). One
 * not found is left out of `runnable`: comm_query never allows it, so the model never picks it, and
 * the ranks of a communicator agree on that (the allowed masks are compared at setup). */
int mca_coll_modeltuned_dispatch_open(void)
{
    mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    mt_algorithm_info info;
    for (int op = 0; op < MT_OPS; ++op) {
        c->runnable[op] = 0;
        if (NULL == (c->algorithms[op] = calloc(c->slots, sizeof *c->algorithms[op])))
            return OMPI_ERR_OUT_OF_RESOURCE;
        for (int id = 0; id < c->slots; ++id)
            c->algorithms[op][id].convention = -1;
        for (int i = 0; 0 == mt_algorithm_at(op, i, &info); ++i) {
            void *fn = dlsym(RTLD_DEFAULT, info.ompi_function);
            const bool fits = convention_fits(op, info.convention);
            if (NULL == fn || !fits || info.id < 1 || info.id >= c->slots ||
                info.id >= MCA_COLL_MODELTUNED_MAX_SLOTS) {
                opal_output_verbose(1, c->output,
                                    "coll:modeltuned:open: %s algorithm %s (%d): %s %s; it "
                                    "is never chosen",
                                    mca_coll_modeltuned_op_name(op), info.name, info.id,
                                    info.ompi_function,
                                    NULL == fn ? "not found in Open MPI's "
                                                 "library"
                                               : "has an unknown calling convention");
                continue;
            }
            c->algorithms[op][info.id] = (mca_coll_modeltuned_algorithm_t){fn, info.convention,
                                                                           info.name,
                                                                           0 != info.splits};
            c->runnable[op] |= 1u << info.id;
        }
    }
    return OMPI_SUCCESS;
}

int mca_coll_modeltuned_run_bcast(const mca_coll_modeltuned_decision_t *d, void *buf, int count,
                                  struct ompi_datatype_t *dtype, int root,
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
    return OMPI_ERR_NOT_SUPPORTED; /* unreachable: only resolved bcast algorithms are ever allowed
                                    */
}

int mca_coll_modeltuned_run_reduce(const mca_coll_modeltuned_decision_t *d, const void *sbuf,
                                   void *rbuf, int count, struct ompi_datatype_t *dtype,
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
    }
    return OMPI_ERR_NOT_SUPPORTED; /* unreachable: only resolved reduce algorithms are ever allowed
                                    */
}

int mca_coll_modeltuned_run_allreduce(const mca_coll_modeltuned_decision_t *d, const void *sbuf,
                                      void *rbuf, int count, struct ompi_datatype_t *dtype,
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
    return OMPI_ERR_NOT_SUPPORTED; /* unreachable: only resolved allreduce algorithms are ever
                                      allowed */
}
