/*
 * MPI_Alltoall: a cached lookup of the model's choice, then Open MPI's own implementation of it
 * through the dispatch table (coll_modeltuned_dispatch.c). A call is decided by one block in
 * bytes (rcount elements of rdtype, the receive side's signature, which every rank shares
 * whatever datatypes each passes). Every algorithm of Open MPI runs an in-place call as its basic
 * in-place exchange, so in-place calls, like empty ones, go to the previous component as they
 * would without modeltuned. Alltoall has no root: every call is decided as rooted at 0. Its table
 * (the end of the file) is what the rest of the component knows of it.
 */
#include "ompi_config.h"

#include <stdlib.h>

#include "coll_modeltuned_call.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/coll/base/coll_base_functions.h"

typedef int (*alltoall_fn)(ALLTOALL_ARGS);
typedef int (*alltoall_requests_fn)(ALLTOALL_ARGS, int max_requests);

/* The receive side of a call, which the guard's call record carries in `more`. */
typedef struct {
    int rcount;
    struct ompi_datatype_t *rdtype;
} receive_side_t;

/* 4.1's modified Bruck receives with the send type: called with the receive side's type on both
 * sides, exact whatever the two are. Where this rank's types differ, its send blocks are copied
 * into the receive side's layout first (a signature-preserving copy). */
static int run_one_layout(alltoall_fn fn, const void *sbuf, int scount,
                          struct ompi_datatype_t *sdtype, void *rbuf, int rcount,
                          struct ompi_datatype_t *rdtype, struct ompi_communicator_t *comm,
                          mca_coll_base_module_t *module)
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
static int run(const mca_coll_modeltuned_decision_t *d, const void *sbuf, int scount,
               struct ompi_datatype_t *sdtype, void *rbuf, int rcount,
               struct ompi_datatype_t *rdtype, struct ompi_communicator_t *comm,
               mca_coll_base_module_t *module)
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

/* The call with decision `d` (NULL: the previous component), counted. */
static inline int alltoall_with(mca_coll_modeltuned_module_t *m, struct ompi_communicator_t *comm,
                                const mca_coll_modeltuned_decision_t *d, const void *sbuf,
                                int scount, struct ompi_datatype_t *sdtype, void *rbuf, int rcount,
                                struct ompi_datatype_t *rdtype, size_t bytes)
{
    mca_coll_modeltuned_count_call(m, MCA_COLL_MODELTUNED_KIND_ALLTOALL, comm, d, bytes, 0);
    if (OPAL_UNLIKELY(NULL == d))
        return MCA_COLL_MODELTUNED_PREVIOUS_FN(m, ALLTOALL, mca_coll_base_module_alltoall_fn_t)(
            sbuf, scount, sdtype, rbuf, rcount, rdtype, comm,
            MCA_COLL_MODELTUNED_PREVIOUS_MODULE(m, ALLTOALL));
    return run(d, sbuf, scount, sdtype, rbuf, rcount, rdtype, comm, &m->super);
}

static int alltoall_call(const mca_coll_modeltuned_call_t *c,
                         const mca_coll_modeltuned_decision_t *d)
{
    const receive_side_t *receive = (const receive_side_t *) c->more;
    return alltoall_with(c->module, c->comm, d, c->sbuf, c->count, c->dtype, c->rbuf,
                         receive->rcount, receive->rdtype, c->bytes);
}

static int alltoall(const void *sbuf, int scount, struct ompi_datatype_t *sdtype, void *rbuf,
                    int rcount, struct ompi_datatype_t *rdtype, struct ompi_communicator_t *comm,
                    mca_coll_base_module_t *module)
{
    mca_coll_modeltuned_module_t *m = (mca_coll_modeltuned_module_t *) module;
    size_t type_size = 0;

    ompi_datatype_type_size(rdtype, &type_size);
    const size_t bytes = (size_t) rcount * type_size;
    mca_coll_modeltuned_decision_t
        *d = 0 == bytes || MPI_IN_PLACE == sbuf
                 ? NULL
                 : mca_coll_modeltuned_lookup(m, comm, MCA_COLL_MODELTUNED_KIND_ALLTOALL, bytes, 1,
                                              0);
    if (OPAL_UNLIKELY(NULL != d && mca_coll_modeltuned_guard_due(d))) {
        const receive_side_t receive = {rcount, rdtype};
        const mca_coll_modeltuned_call_t call = {.module = m,
                                                 .comm = comm,
                                                 .kind = MCA_COLL_MODELTUNED_KIND_ALLTOALL,
                                                 .bytes = bytes,
                                                 .sbuf = sbuf,
                                                 .rbuf = rbuf,
                                                 .count = scount,
                                                 .dtype = sdtype,
                                                 .more = &receive,
                                                 .run = alltoall_call};
        return mca_coll_modeltuned_guarded(&call, d);
    }
    return alltoall_with(m, comm, d, sbuf, scount, sdtype, rbuf, rcount, rdtype, bytes);
}

const mca_coll_modeltuned_collective_t mca_coll_modeltuned_collective_alltoall = {
    MCA_COLL_MODELTUNED_COLLECTIVE_FIELDS(alltoall, ALLTOALL),
    .entry = (mca_coll_modeltuned_fn_t) alltoall,
    .first_convention = MT_CALL_ALLTOALL,
    .last_convention = MT_CALL_ALLTOALL_ONE_LAYOUT,
};
