/*
 * MPI_Allgather: a cached lookup of the model's choice, then Open MPI's own implementation of it
 * through the dispatch table (coll_modeltuned_dispatch.c), from the template of the collectives
 * with allgather's arguments (coll_modeltuned_call.h): a call is decided by one rank's block in
 * bytes. Its table (the end of the file) is what the rest of the component knows of it.
 */
#include "ompi_config.h"

#include "coll_modeltuned_call.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/coll/base/coll_base_functions.h"

typedef int (*allgather_fn)(ALLGATHER_ARGS);
typedef int (*allgather_radix_fn)(ALLGATHER_ARGS, int radix);

/* sparbit sends `scount` elements of `rdtype` from the receive buffer: exact only when called in
 * place with the receive side's count and type, this rank's block copied into place first. */
static int run_in_place(allgather_fn fn, const void *sbuf, mca_coll_modeltuned_count_t scount,
                        struct ompi_datatype_t *sdtype, void *rbuf,
                        mca_coll_modeltuned_count_t rcount, struct ompi_datatype_t *rdtype,
                        struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
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

/* Direct messaging sends the send side's count and type even in place: there, this rank's block of
 * the receive buffer is the send side (copied onto itself first, which Open MPI's copy allows). */
static int run_own_block(allgather_fn fn, const void *sbuf, mca_coll_modeltuned_count_t scount,
                         struct ompi_datatype_t *sdtype, void *rbuf,
                         mca_coll_modeltuned_count_t rcount, struct ompi_datatype_t *rdtype,
                         struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    if (MPI_IN_PLACE == sbuf) {
        ptrdiff_t lb = 0, extent = 0;
        ompi_datatype_get_extent(rdtype, &lb, &extent);
        char *own = (char *) rbuf + (ptrdiff_t) ompi_comm_rank(comm) * (ptrdiff_t) rcount * extent;
        return fn(own, rcount, rdtype, rbuf, rcount, rdtype, comm, module);
    }
    return fn(sbuf, scount, sdtype, rbuf, rcount, rdtype, comm, module);
}

/* The decided algorithm in its calling convention. */
static int run(const mca_coll_modeltuned_decision_t *d, const void *sbuf,
               mca_coll_modeltuned_count_t scount, struct ompi_datatype_t *sdtype, void *rbuf,
               mca_coll_modeltuned_count_t rcount, struct ompi_datatype_t *rdtype,
               struct ompi_communicator_t *comm, mca_coll_base_module_t *module)
{
    switch (d->convention) {
    case MT_CALL_ALLGATHER:
        return ((allgather_fn) d->fn)(sbuf, scount, sdtype, rbuf, rcount, rdtype, comm, module);
    case MT_CALL_ALLGATHER_IN_PLACE:
        return run_in_place((allgather_fn) d->fn, sbuf, scount, sdtype, rbuf, rcount, rdtype, comm,
                            module);
    case MT_CALL_ALLGATHER_RADIX:
        return ((allgather_radix_fn) d->fn)(sbuf, scount, sdtype, rbuf, rcount, rdtype, comm,
                                            module, d->fanout);
    case MT_CALL_ALLGATHER_OWN_BLOCK:
        return run_own_block((allgather_fn) d->fn, sbuf, scount, sdtype, rbuf, rcount, rdtype, comm,
                             module);
    }
    return OMPI_ERR_NOT_SUPPORTED; /* unreachable: only resolved algorithms are ever allowed */
}

static const mca_coll_modeltuned_exchange_t exchange = {.op = MT_OP_ALLGATHER,
                                                        .kind = MCA_COLL_MODELTUNED_KIND_ALLGATHER,
                                                        .run = run};

static __attribute__((noinline)) int
allgather_decided(const void *sbuf, mca_coll_modeltuned_count_t scount,
                  struct ompi_datatype_t *sdtype, void *rbuf, mca_coll_modeltuned_count_t rcount,
                  struct ompi_datatype_t *rdtype, struct ompi_communicator_t *comm,
                  mca_coll_base_module_t *module)
{
    return mca_coll_modeltuned_exchange_decided(&exchange, false, sbuf, scount, sdtype, rbuf,
                                                rcount, rdtype, comm, module);
}

static int allgather(const void *sbuf, mca_coll_modeltuned_count_t scount,
                     struct ompi_datatype_t *sdtype, void *rbuf, mca_coll_modeltuned_count_t rcount,
                     struct ompi_datatype_t *rdtype, struct ompi_communicator_t *comm,
                     mca_coll_base_module_t *module)
{
    return mca_coll_modeltuned_exchange(&exchange, false, allgather_decided, sbuf, scount, sdtype,
                                        rbuf, rcount, rdtype, comm, module);
}

const mca_coll_modeltuned_collective_t mca_coll_modeltuned_collective_allgather = {
    MCA_COLL_MODELTUNED_COLLECTIVE_FIELDS(allgather, ALLGATHER),
    .entry = (mca_coll_modeltuned_fn_t) allgather,
    .first_convention = MT_CALL_ALLGATHER,
    .last_convention = MT_CALL_ALLGATHER_OWN_BLOCK,
};
