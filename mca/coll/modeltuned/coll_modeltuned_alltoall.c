/*
 * MPI_Alltoall: a cached lookup of the model's choice, then Open MPI's own implementation of it
 * through the dispatch table (coll_modeltuned_dispatch.c), from the template of the block
 * exchanges (coll_modeltuned_call.h): a call is decided by one block in bytes.
 * Every algorithm of Open MPI runs an in-place call as its basic in-place exchange, so in-place
 * calls, like empty ones, go to the previous component as they would without modeltuned. Its
 * table (the end of the file) is what the rest of the component knows of it.
 */
#include "ompi_config.h"

#include <stdlib.h>

#include "coll_modeltuned_call.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/coll/base/coll_base_functions.h"

typedef int (*alltoall_fn)(ALLTOALL_ARGS);
typedef int (*alltoall_requests_fn)(ALLTOALL_ARGS, int max_requests);

/* 4.1's modified Bruck receives with the send type: called with the receive side's type on both
 * sides, exact whatever the two are. Where this rank's types differ, its send blocks are copied
 * into the receive side's layout first (a signature-preserving copy). */
static int run_one_layout(alltoall_fn fn, const void *sbuf, mca_coll_modeltuned_count_t scount,
                          struct ompi_datatype_t *sdtype, void *rbuf,
                          mca_coll_modeltuned_count_t rcount, struct ompi_datatype_t *rdtype,
                          struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    if (sdtype == rdtype && scount == rcount)
        return fn(sbuf, scount, sdtype, rbuf, rcount, rdtype, comm, module);
    const int blocks = ompi_comm_size(comm);
    ptrdiff_t gap = 0;
    const ptrdiff_t span = opal_datatype_span(&rdtype->super, (int64_t) blocks * rcount, &gap);
    char *copy = malloc(span > 0 ? (size_t) span : 1);
    if (NULL == copy)
        return OMPI_ERR_OUT_OF_RESOURCE;
    int rc = ompi_datatype_sndrcv(sbuf, blocks * scount, sdtype, copy - gap, blocks * rcount,
                                  rdtype);
    if (OMPI_SUCCESS == rc)
        rc = fn(copy - gap, rcount, rdtype, rbuf, rcount, rdtype, comm, module);
    free(copy);
    return rc;
}

/* The decided algorithm in its calling convention. */
static int run(const mca_coll_modeltuned_decision_t *d, const void *sbuf,
               mca_coll_modeltuned_count_t scount, struct ompi_datatype_t *sdtype, void *rbuf,
               mca_coll_modeltuned_count_t rcount, struct ompi_datatype_t *rdtype,
               struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    switch (d->convention) {
    case MT_CALL_ALLTOALL:
        return ((alltoall_fn) d->fn)(sbuf, scount, sdtype, rbuf, rcount, rdtype, comm, module);
    case MT_CALL_ALLTOALL_REQUESTS: /* every request at once, as the model predicts it */
        return ((alltoall_requests_fn) d->fn)(sbuf, scount, sdtype, rbuf, rcount, rdtype, comm,
                                              module, 0);
    case MT_CALL_ALLTOALL_ONE_LAYOUT:
        return run_one_layout((alltoall_fn) d->fn, sbuf, scount, sdtype, rbuf, rcount, rdtype, comm,
                              module);
    }
    return OMPI_ERR_NOT_SUPPORTED; /* unreachable: only resolved algorithms are ever allowed */
}

static const mca_coll_modeltuned_exchange_t exchange = {.op = MT_OP_ALLTOALL,
                                                        .kind = MCA_COLL_MODELTUNED_KIND_ALLTOALL,
                                                        .run = run};

static __attribute__((noinline)) int
alltoall_decided(const void *sbuf, mca_coll_modeltuned_count_t scount,
                 struct ompi_datatype_t *sdtype, void *rbuf, mca_coll_modeltuned_count_t rcount,
                 struct ompi_datatype_t *rdtype, struct ompi_communicator_t *comm,
                 mca_coll_base_module_t *module)
{
    return mca_coll_modeltuned_exchange_decided(&exchange, MPI_IN_PLACE == sbuf, sbuf, scount,
                                                sdtype, rbuf, rcount, rdtype, comm, module);
}

static int alltoall(const void *sbuf, mca_coll_modeltuned_count_t scount,
                    struct ompi_datatype_t *sdtype, void *rbuf, mca_coll_modeltuned_count_t rcount,
                    struct ompi_datatype_t *rdtype, struct ompi_communicator_t *comm,
                    mca_coll_base_module_t *module)
{
    return mca_coll_modeltuned_exchange(&exchange, MPI_IN_PLACE == sbuf, alltoall_decided, sbuf,
                                        scount, sdtype, rbuf, rcount, rdtype, comm, module);
}

const mca_coll_modeltuned_collective_t mca_coll_modeltuned_collective_alltoall = {
    MCA_COLL_MODELTUNED_COLLECTIVE_FIELDS(alltoall, ALLTOALL),
    .entry = (mca_coll_modeltuned_fn_t) alltoall,
    .first_convention = MT_CALL_ALLTOALL,
    .last_convention = MT_CALL_ALLTOALL_ONE_LAYOUT,
};
