/*
 * A bcast buffer that every rank cuts alike.
 *
 * MPI lets ranks describe one message with different datatypes of the same type signature (the
 * root N x contiguous(4, MPI_INT), the others 4N x MPI_INT). Open MPI's segmented and splitting
 * algorithms cut by elements of each rank's own datatype, so such ranks would cut differently and
 * exchange mismatched pieces (wrong data, then a hang). When a decision cuts the message, every
 * rank runs it on bytes instead: a contiguous layout costs nothing, another one is packed into a
 * temporary at the root and unpacked from one elsewhere. Whether a decision cuts depends on the
 * decision and the message size only, so all ranks take the same path.
 *
 * Reduce needs no view: Open MPI accepts intrinsic operations on predefined datatypes only, which
 * matching ranks share, and a user-defined operation, which sees each rank's own datatype, only
 * gets algorithms that move the message whole (coll_modeltuned_reduce.c).
 */
#include "ompi_config.h"

#include <limits.h>
#include <stdlib.h>

#include "coll_modeltuned.h"
#include "ompi/datatype/ompi_datatype.h"

/* Where a contiguous layout's first byte is. */
static char *first_byte(const void *buf, struct ompi_datatype_t *dtype)
{
    ptrdiff_t lb = 0, extent = 0;
    ompi_datatype_get_true_extent(dtype, &lb, &extent);
    return (char *) buf + lb;
}

int mca_coll_modeltuned_bcast_view(mca_coll_modeltuned_view_t *v, void *buf,
                                   mca_coll_modeltuned_count_t count, struct ompi_datatype_t *dtype,
                                   size_t bytes, bool root)
{
    v->temp = NULL;
    if (bytes > INT_MAX)
        return OMPI_ERR_NOT_SUPPORTED; /* same size everywhere: all fall back */
    v->count = (int) bytes;
    v->dtype = &ompi_mpi_byte.dt;
    if (ompi_datatype_is_contiguous_memory_layout(dtype, count)) {
        v->buf = first_byte(buf, dtype);
        return OMPI_SUCCESS;
    }
    if (NULL == (v->temp = malloc(bytes)))
        return OMPI_ERR_OUT_OF_RESOURCE;
    v->buf = v->temp;
    if (!root)
        return OMPI_SUCCESS;
    return ompi_datatype_sndrcv(buf, count, dtype, v->temp, v->count, &ompi_mpi_packed.dt);
}

int mca_coll_modeltuned_bcast_view_done(mca_coll_modeltuned_view_t *v, void *buf,
                                        mca_coll_modeltuned_count_t count,
                                        struct ompi_datatype_t *dtype, bool root, int rc)
{
    if (NULL != v->temp) {
        if (!root && OMPI_SUCCESS == rc)
            rc = ompi_datatype_sndrcv(v->temp, v->count, &ompi_mpi_packed.dt, buf, count, dtype);
        free(v->temp);
    }
    return rc;
}
