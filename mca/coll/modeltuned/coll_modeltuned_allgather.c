/*
 * MPI_Allgather: a cached lookup of the model's choice, then Open MPI's own implementation of it
 * through the dispatch table (coll_modeltuned_dispatch.c). A call is decided by one rank's block
 * in bytes (rcount elements of rdtype): the receive side's signature, which every rank shares
 * whatever datatypes each passes. Allgather has no root: every call is decided as rooted at 0.
 * Its table (the end of the file) is what the rest of the component knows of it.
 */
#include "ompi_config.h"

#include "coll_modeltuned_call.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/coll/base/coll_base_functions.h"

typedef int (*allgather_fn)(ALLGATHER_ARGS);

/* The receive side of a call, which the guard's call record carries in `more`. */
typedef struct {
    int rcount;
    struct ompi_datatype_t *rdtype;
} receive_side_t;

/* sparbit sends `scount` elements of `rdtype` from the receive buffer: exact only when called in
 * place with the receive side's count and type, this rank's block copied into place first. */
static int run_in_place(allgather_fn fn, const void *sbuf, int scount,
                        struct ompi_datatype_t *sdtype, void *rbuf, int rcount,
                        struct ompi_datatype_t *rdtype, struct ompi_communicator_t *comm,
                        mca_coll_base_module_t *module)
{
    if (MPI_IN_PLACE != sbuf) {
        ptrdiff_t lb = 0, extent = 0;
        ompi_datatype_get_extent(rdtype, &lb, &extent);
        char *own = (char *) rbuf + (ptrdiff_t) ompi_comm_rank(comm) * (ptrdiff_t) rcount * extent;
        const int rc = ompi_datatype_sndrcv(sbuf, scount, sdtype, own, rcount, rdtype);
        if (OMPI_SUCCESS != rc)
            return rc;
    }
    return fn(MPI_IN_PLACE, rcount, rdtype, rbuf, rcount, rdtype, comm, module);
}

/* The decided algorithm in its calling convention. */
static int run(const mca_coll_modeltuned_decision_t *d, const void *sbuf, int scount,
               struct ompi_datatype_t *sdtype, void *rbuf, int rcount,
               struct ompi_datatype_t *rdtype, struct ompi_communicator_t *comm,
               mca_coll_base_module_t *module)
{
    switch (d->convention) {
    case MT_CALL_ALLGATHER:
        return ((allgather_fn) d->fn)(sbuf, scount, sdtype, rbuf, rcount, rdtype, comm, module);
    case MT_CALL_ALLGATHER_IN_PLACE:
        return run_in_place((allgather_fn) d->fn, sbuf, scount, sdtype, rbuf, rcount, rdtype, comm,
                            module);
    }
    return OMPI_ERR_NOT_SUPPORTED; /* unreachable: only resolved algorithms are ever allowed */
}

/* The call with decision `d` (NULL: the previous component), counted. */
static inline int allgather_with(mca_coll_modeltuned_module_t *m, struct ompi_communicator_t *comm,
                                 const mca_coll_modeltuned_decision_t *d, const void *sbuf,
                                 int scount, struct ompi_datatype_t *sdtype, void *rbuf, int rcount,
                                 struct ompi_datatype_t *rdtype, size_t bytes)
{
    mca_coll_modeltuned_count_call(m, MCA_COLL_MODELTUNED_KIND_ALLGATHER, comm, d, bytes, 0);
    if (OPAL_UNLIKELY(NULL == d))
        return MCA_COLL_MODELTUNED_PREVIOUS_FN(m, ALLGATHER, mca_coll_base_module_allgather_fn_t)(
            sbuf, scount, sdtype, rbuf, rcount, rdtype, comm,
            MCA_COLL_MODELTUNED_PREVIOUS_MODULE(m, ALLGATHER));
    return run(d, sbuf, scount, sdtype, rbuf, rcount, rdtype, comm, &m->super);
}

static int allgather_call(const mca_coll_modeltuned_call_t *c,
                          const mca_coll_modeltuned_decision_t *d)
{
    const receive_side_t *receive = (const receive_side_t *) c->more;
    return allgather_with(c->module, c->comm, d, c->sbuf, c->count, c->dtype, c->rbuf,
                          receive->rcount, receive->rdtype, c->bytes);
}

static int allgather(const void *sbuf, int scount, struct ompi_datatype_t *sdtype, void *rbuf,
                     int rcount, struct ompi_datatype_t *rdtype, struct ompi_communicator_t *comm,
                     mca_coll_base_module_t *module)
{
    mca_coll_modeltuned_module_t *m = (mca_coll_modeltuned_module_t *) module;
    size_t type_size = 0;

    ompi_datatype_type_size(rdtype, &type_size);
    const size_t bytes = (size_t) rcount * type_size;
    mca_coll_modeltuned_decision_t
        *d = 0 == bytes ? NULL /* nothing moves: Open MPI's own handles it as it always does */
                        : mca_coll_modeltuned_lookup(m, comm, MCA_COLL_MODELTUNED_KIND_ALLGATHER,
                                                     bytes, 1, 0);
    if (OPAL_UNLIKELY(NULL != d && mca_coll_modeltuned_guard_due(d))) {
        const receive_side_t receive = {rcount, rdtype};
        const mca_coll_modeltuned_call_t call = {.module = m,
                                                 .comm = comm,
                                                 .kind = MCA_COLL_MODELTUNED_KIND_ALLGATHER,
                                                 .bytes = bytes,
                                                 .sbuf = sbuf,
                                                 .rbuf = rbuf,
                                                 .count = scount,
                                                 .dtype = sdtype,
                                                 .more = &receive,
                                                 .run = allgather_call};
        return mca_coll_modeltuned_guarded(&call, d);
    }
    return allgather_with(m, comm, d, sbuf, scount, sdtype, rbuf, rcount, rdtype, bytes);
}

const mca_coll_modeltuned_collective_t mca_coll_modeltuned_collective_allgather = {
    MCA_COLL_MODELTUNED_COLLECTIVE_FIELDS(allgather, ALLGATHER),
    .entry = (mca_coll_modeltuned_fn_t) allgather,
    .first_convention = MT_CALL_ALLGATHER,
    .last_convention = MT_CALL_ALLGATHER_IN_PLACE,
};
