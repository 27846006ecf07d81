/*
 * Other components' algorithms (model/collectives/components.cpp). Each is one of the model's
 * candidates with an entry here in the calling convention of Open MPI's base functions, which the
 * dispatch table holds like any ompi_coll_base_* function. The entry runs the component's own
 * function on a private communicator: a dup of the user's, made at the first call that picks the
 * component (the same call on every rank), whose component preference puts that component on top
 * and leaves modeltuned and han out (Open MPI's info key ompi_comm_coll_preference, which han
 * gives its own sub-communicators). The component's fallbacks there are tuned's, never
 * modeltuned's, and whatever it sets up lazily stays off the user's communicator. Freed with the
 * module, at disable.
 */
#include "ompi_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_modeltuned_call.h"
#include "ompi/mca/coll/base/base.h"
#include "ompi/mca/coll/base/coll_base_util.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"
#include "ompi/runtime/mpiruntime.h"
#include "opal/mca/base/base.h"
#include "opal/util/info.h"

static const char *const component_names[MCA_COLL_MODELTUNED_FOREIGN] = {"sm", "adapt", "xhc",
                                                                         "acoll"};

enum { ACOLL = 3 }; /* its index in component_names */

#define FOREIGN_UNUSABLE MCA_COLL_MODELTUNED_FOREIGN_UNUSABLE

int mca_coll_modeltuned_foreign_index(const char *component)
{
    for (int k = 0; k < MCA_COLL_MODELTUNED_FOREIGN; ++k)
        if (0 == strcmp(component_names[k], component))
            return k;
    return -1;
}

/* Whether Open MPI loaded the component: one it did not (not installed, or left out by the job's
 * --mca coll list) would never come on top, so its algorithms are not runnable. */
bool mca_coll_modeltuned_foreign_loaded(const char *component)
{
    mca_base_component_list_item_t *cli;
    OPAL_LIST_FOREACH (cli, &ompi_coll_base_framework.framework_components,
                       mca_base_component_list_item_t)
        if (0 == strcmp(cli->cli_component->mca_component_name, component))
            return true;
    return false;
}

/* Whether `priv`'s modules include `component`'s: it came on top (its comm_query and enable
 * took the communicator). */
static bool component_enabled(struct ompi_communicator_t *priv, const char *component)
{
    mca_coll_base_avail_coll_t *item;
    if (NULL == priv->c_coll->module_list)
        return false;
    OPAL_LIST_FOREACH (item, priv->c_coll->module_list, mca_coll_base_avail_coll_t)
        if (0 == strcmp(item->ac_component_name, component))
            return true;
    return false;
}

/* The dup with `component` preferred; every rank learns whether all made it (one allreduce by the
 * components below modeltuned), so that all run the component or all hand back. */
static struct ompi_communicator_t *create(mca_coll_modeltuned_module_t *m,
                                          struct ompi_communicator_t *comm, int k)
{
    char preference[64];
    snprintf(preference, sizeof preference, "%s,^modeltuned,han", component_names[k]);
    opal_info_t *info = OBJ_NEW(opal_info_t);
    struct ompi_communicator_t *priv = NULL;
    int ok = NULL != info &&
             OPAL_SUCCESS == opal_info_set(info, "ompi_comm_coll_preference", preference);
    ok = ok && OMPI_SUCCESS == mca_coll_modeltuned_dup_with_info(comm, info, &priv) && NULL != priv;
    ok = ok && component_enabled(priv, component_names[k]);
    if (NULL != info)
        OBJ_RELEASE(info);
    int all = 0;
    mca_coll_base_module_allreduce_fn_t
        agree = (mca_coll_base_module_allreduce_fn_t) m->previous[MT_OP_ALLREDUCE].fn;
    if (OMPI_SUCCESS !=
        agree(&ok, &all, 1, MPI_INT, MPI_MIN, comm, m->previous[MT_OP_ALLREDUCE].module))
        all = 0;
    if (!all) {
        if (NULL != priv)
            ompi_comm_free(&priv);
        opal_output_verbose(1, mca_coll_modeltuned_component.output,
                            "coll:modeltuned:foreign cid=%d: %s cannot run on this communicator "
                            "(no rank or not every rank could put it on top of a private "
                            "communicator); its picks go to %s",
                            mca_coll_modeltuned_cid(comm), component_names[k],
                            m->fallback[MT_OP_ALLREDUCE]);
        return NULL;
    }
    /* Open MPI's finalize releases the communicators left in index order; one of a lower index
     * than its parent would go first, so it holds a reference of the module's until disable. */
    if (mca_coll_modeltuned_comm_index(priv) < mca_coll_modeltuned_comm_index(comm)) {
        OBJ_RETAIN(priv);
        m->foreign_retained |= (uint8_t) (1u << k);
    }
    opal_output_verbose(10, mca_coll_modeltuned_component.output,
                        "coll:modeltuned:foreign cid=%d: %s on top of private communicator %d",
                        mca_coll_modeltuned_cid(comm), component_names[k],
                        mca_coll_modeltuned_cid(priv));
    return priv;
}

/* The private communicator of component k, made on first use; NULL when the call goes to the
 * previous component: while one is being made (its creation's own collectives), or where it could
 * not be. */
static struct ompi_communicator_t *private_comm(mca_coll_modeltuned_module_t *m,
                                                struct ompi_communicator_t *comm, int k)
{
    struct ompi_communicator_t *priv = m->foreign[k];
    if (OPAL_LIKELY(NULL != priv && FOREIGN_UNUSABLE != priv))
        return priv;
    if (FOREIGN_UNUSABLE == priv || m->foreign_creating)
        return NULL;
    m->foreign_creating = true;
    priv = create(m, comm, k);
    m->foreign_creating = false;
    m->foreign[k] = NULL != priv ? priv : FOREIGN_UNUSABLE;
    return priv;
}

void mca_coll_modeltuned_foreign_free(mca_coll_modeltuned_module_t *m)
{
    for (int k = 0; k < MCA_COLL_MODELTUNED_FOREIGN; ++k) {
        struct ompi_communicator_t *priv = m->foreign[k];
        m->foreign[k] = NULL;
        if (NULL == priv || FOREIGN_UNUSABLE == priv)
            continue;
        /* In finalize the loop over communicators released the reference the module held. */
        const bool held = 0 != (m->foreign_retained & (1u << k)) &&
                          ompi_mpi_state < OMPI_MPI_STATE_FINALIZE_STARTED;
        struct ompi_communicator_t *kept = priv;
        ompi_comm_free(&priv);
        if (held)
            OBJ_RELEASE(kept);
    }
    m->foreign_retained = 0;
}

/* One entry per (component, collective) it runs, in the base functions' calling conventions: the
 * module passed is modeltuned's own. Static: the dispatch table finds them by name below. */
#define PREVIOUS(NAME, type)  MCA_COLL_MODELTUNED_PREVIOUS_FN(m, NAME, type)
#define PREVIOUS_MODULE(NAME) MCA_COLL_MODELTUNED_PREVIOUS_MODULE(m, NAME)

#define FOREIGN_BCAST(component, k)                                                                \
    static int mca_coll_modeltuned_##component##_bcast(void *buf,                                  \
                                                       mca_coll_modeltuned_count_t count,          \
                                                       struct ompi_datatype_t *dtype, int root,    \
                                                       struct ompi_communicator_t *comm,           \
                                                       mca_coll_base_module_t *module)             \
    {                                                                                              \
        mca_coll_modeltuned_module_t *m = (mca_coll_modeltuned_module_t *) module;                 \
        struct ompi_communicator_t *priv = private_comm(m, comm, k);                               \
        if (NULL == priv)                                                                          \
            return PREVIOUS(BCAST, mca_coll_base_module_bcast_fn_t)(buf, count, dtype, root, comm, \
                                                                    PREVIOUS_MODULE(BCAST));       \
        return priv->c_coll->coll_bcast(buf, count, dtype, root, priv,                             \
                                        priv->c_coll->coll_bcast_module);                          \
    }

#define FOREIGN_REDUCE(component, k)                                                            \
    static int mca_coll_modeltuned_##component##_reduce(const void *sbuf, void *rbuf,           \
                                                        mca_coll_modeltuned_count_t count,      \
                                                        struct ompi_datatype_t *dtype,          \
                                                        struct ompi_op_t *op, int root,         \
                                                        struct ompi_communicator_t *comm,       \
                                                        mca_coll_base_module_t *module)         \
    {                                                                                           \
        mca_coll_modeltuned_module_t *m = (mca_coll_modeltuned_module_t *) module;              \
        struct ompi_communicator_t *priv = private_comm(m, comm, k);                            \
        if (NULL == priv)                                                                       \
            return PREVIOUS(REDUCE, mca_coll_base_module_reduce_fn_t)(sbuf, rbuf, count, dtype, \
                                                                      op, root, comm,           \
                                                                      PREVIOUS_MODULE(REDUCE)); \
        return priv->c_coll->coll_reduce(sbuf, rbuf, count, dtype, op, root, priv,              \
                                         priv->c_coll->coll_reduce_module);                     \
    }

#define FOREIGN_ALLREDUCE(component, k)                                                        \
    static int mca_coll_modeltuned_##component##_allreduce(const void *sbuf, void *rbuf,       \
                                                           mca_coll_modeltuned_count_t count,  \
                                                           struct ompi_datatype_t *dtype,      \
                                                           struct ompi_op_t *op,               \
                                                           struct ompi_communicator_t *comm,   \
                                                           mca_coll_base_module_t *module)     \
    {                                                                                          \
        mca_coll_modeltuned_module_t *m = (mca_coll_modeltuned_module_t *) module;             \
        struct ompi_communicator_t *priv = private_comm(m, comm, k);                           \
        if (NULL == priv)                                                                      \
            return PREVIOUS(ALLREDUCE,                                                         \
                            mca_coll_base_module_allreduce_fn_t)(sbuf, rbuf, count, dtype, op, \
                                                                 comm,                         \
                                                                 PREVIOUS_MODULE(ALLREDUCE));  \
        return priv->c_coll->coll_allreduce(sbuf, rbuf, count, dtype, op, priv,                \
                                            priv->c_coll->coll_allreduce_module);              \
    }

#define FOREIGN_BARRIER(component, k)                                                              \
    static int mca_coll_modeltuned_##component##_barrier(struct ompi_communicator_t *comm,         \
                                                         mca_coll_base_module_t *module)           \
    {                                                                                              \
        mca_coll_modeltuned_module_t *m = (mca_coll_modeltuned_module_t *) module;                 \
        struct ompi_communicator_t *priv = private_comm(m, comm, k);                               \
        if (NULL == priv)                                                                          \
            return PREVIOUS(BARRIER, mca_coll_base_module_barrier_fn_t)(comm,                      \
                                                                        PREVIOUS_MODULE(BARRIER)); \
        return priv->c_coll->coll_barrier(priv, priv->c_coll->coll_barrier_module);                \
    }

FOREIGN_BCAST(sm, 0)
FOREIGN_REDUCE(sm, 0)
FOREIGN_ALLREDUCE(sm, 0)
FOREIGN_BARRIER(sm, 0)
FOREIGN_BCAST(adapt, 1)
FOREIGN_REDUCE(adapt, 1)
FOREIGN_BCAST(xhc, 2)
FOREIGN_REDUCE(xhc, 2)
FOREIGN_ALLREDUCE(xhc, 2)
FOREIGN_BARRIER(xhc, 2)
FOREIGN_REDUCE(acoll, ACOLL)
FOREIGN_ALLREDUCE(acoll, ACOLL)
FOREIGN_BARRIER(acoll, ACOLL)

/* coll/acoll picks its shared-memory paths by each rank's own datatype (predefined or not), so
 * ranks whose datatypes differ while their signatures match, as MPI allows, take different paths
 * and deadlock (its bcast up to 8 KiB, and its allgather, under 6.0.0rc2, also when it runs
 * alone). Its data-moving collectives are called on the message's bytes instead: MPI_BYTE on every
 * rank, the rank's own buffer where its elements lie contiguous, else a packed copy. The bytes
 * moved, and so the results, are the same. */
typedef struct {
    char *bytes; /* the view: into the caller's buffer, or `copy` */
    char *copy;  /* NULL: the caller's elements lie contiguous */
} byte_view_t;

static int view_open(byte_view_t *v, const void *buf, size_t count, struct ompi_datatype_t *dtype,
                     size_t bytes, bool pack)
{
    ptrdiff_t true_lb = 0, true_extent = 0;
    v->copy = NULL;
    if (ompi_datatype_is_contiguous_memory_layout(dtype, count)) {
        ompi_datatype_get_true_extent(dtype, &true_lb, &true_extent);
        v->bytes = (char *) buf + true_lb;
        return OMPI_SUCCESS;
    }
    v->copy = v->bytes = malloc(bytes > 0 ? bytes : 1);
    if (NULL == v->copy)
        return OMPI_ERR_OUT_OF_RESOURCE;
    return pack ? ompi_datatype_sndrcv(buf, count, dtype, v->bytes, bytes, MPI_BYTE) : OMPI_SUCCESS;
}

static int view_close(byte_view_t *v, int rc, void *buf, size_t count,
                      struct ompi_datatype_t *dtype, size_t bytes, bool unpack)
{
    if (NULL == v->copy)
        return rc;
    if (OMPI_SUCCESS == rc && unpack)
        rc = ompi_datatype_sndrcv(v->bytes, bytes, MPI_BYTE, buf, count, dtype);
    free(v->copy);
    return rc;
}

/* The bytes of `count` elements, or 0 where a count cannot hold them (4.1's and 5.0's int counts;
 * acoll is 6.0's): the call then goes to the previous component. */
static size_t bytes_of(size_t count, struct ompi_datatype_t *dtype)
{
    size_t size = 0;
    ompi_datatype_type_size(dtype, &size);
    const size_t bytes = size * count;
    return bytes == (size_t) (mca_coll_modeltuned_count_t) bytes ? bytes : 0;
}

static int mca_coll_modeltuned_acoll_bcast(void *buf, mca_coll_modeltuned_count_t count,
                                           struct ompi_datatype_t *dtype, int root,
                                           struct ompi_communicator_t *comm,
                                           mca_coll_base_module_t *module)
{
    mca_coll_modeltuned_module_t *m = (mca_coll_modeltuned_module_t *) module;
    struct ompi_communicator_t *priv = private_comm(m, comm, ACOLL);
    const size_t bytes = bytes_of(count, dtype);
    if (NULL == priv || (0 == bytes && 0 != count))
        return PREVIOUS(BCAST, mca_coll_base_module_bcast_fn_t)(buf, count, dtype, root, comm,
                                                                PREVIOUS_MODULE(BCAST));
    const bool root_rank = ompi_comm_rank(comm) == root;
    byte_view_t v;
    int rc = view_open(&v, buf, count, dtype, bytes, root_rank);
    if (OMPI_SUCCESS == rc)
        rc = priv->c_coll->coll_bcast(v.bytes, bytes, MPI_BYTE, root, priv,
                                      priv->c_coll->coll_bcast_module);
    return view_close(&v, rc, buf, count, dtype, bytes, !root_rank);
}

/* Allgather and alltoall: `blocks` blocks on the receive side (one per rank), one (allgather) or
 * `blocks` (alltoall) on the send side; in place, the receive buffer is both. */
static int acoll_exchange(bool alltoall, const void *sbuf, mca_coll_modeltuned_count_t scount,
                          struct ompi_datatype_t *sdtype, void *rbuf,
                          mca_coll_modeltuned_count_t rcount, struct ompi_datatype_t *rdtype,
                          struct ompi_communicator_t *comm, struct ompi_communicator_t *priv)
{
    const size_t blocks = (size_t) ompi_comm_size(comm), block = bytes_of(rcount, rdtype);
    const size_t send_count = (size_t) scount * (alltoall ? blocks : 1);
    const bool in_place = MPI_IN_PLACE == sbuf;
    byte_view_t r, s = {.bytes = (char *) MPI_IN_PLACE, .copy = NULL};
    /* In place, the receive side holds this rank's data (allgather: its own block) already. */
    int rc = view_open(&r, rbuf, (size_t) rcount * blocks, rdtype, block * blocks, in_place);
    if (OMPI_SUCCESS == rc && !in_place)
        rc = view_open(&s, sbuf, send_count, sdtype, bytes_of(send_count, sdtype), true);
    if (OMPI_SUCCESS == rc && alltoall)
        rc = priv->c_coll->coll_alltoall(s.bytes, in_place ? 0 : block, MPI_BYTE, r.bytes, block,
                                         MPI_BYTE, priv, priv->c_coll->coll_alltoall_module);
    else if (OMPI_SUCCESS == rc)
        rc = priv->c_coll->coll_allgather(s.bytes, in_place ? 0 : block, MPI_BYTE, r.bytes, block,
                                          MPI_BYTE, priv, priv->c_coll->coll_allgather_module);
    if (!in_place)
        rc = view_close(&s, rc, (void *) sbuf, send_count, sdtype, 0, false);
    return view_close(&r, rc, rbuf, (size_t) rcount * blocks, rdtype, block * blocks, true);
}

#define ACOLL_EXCHANGE(name, NAME, alltoall)                                                      \
    static int mca_coll_modeltuned_acoll_##name(const void *sbuf,                                 \
                                                mca_coll_modeltuned_count_t scount,               \
                                                struct ompi_datatype_t *sdtype, void *rbuf,       \
                                                mca_coll_modeltuned_count_t rcount,               \
                                                struct ompi_datatype_t *rdtype,                   \
                                                struct ompi_communicator_t *comm,                 \
                                                mca_coll_base_module_t *module)                   \
    {                                                                                             \
        mca_coll_modeltuned_module_t *m = (mca_coll_modeltuned_module_t *) module;                \
        struct ompi_communicator_t *priv = private_comm(m, comm, ACOLL);                          \
        const size_t whole = bytes_of((size_t) rcount * (size_t) ompi_comm_size(comm), rdtype);   \
        if (NULL == priv || (0 == whole && 0 != rcount))                                          \
            return PREVIOUS(NAME, mca_coll_base_module_##name##_fn_t)(sbuf, scount, sdtype, rbuf, \
                                                                      rcount, rdtype, comm,       \
                                                                      PREVIOUS_MODULE(NAME));     \
        return acoll_exchange(alltoall, sbuf, scount, sdtype, rbuf, rcount, rdtype, comm, priv);  \
    }

ACOLL_EXCHANGE(allgather, ALLGATHER, false)
ACOLL_EXCHANGE(alltoall, ALLTOALL, true)

/* The entries by name, for the dispatch table: the shared object's own symbols, which dlsym need
 * not see (Open MPI may load it without RTLD_GLOBAL). */
static const struct {
    const char *name;
    void *fn;
    int8_t direct; /* 1 + k: it only hands the call to component k's private communicator */
} entries[] = {
    {"mca_coll_modeltuned_sm_bcast", (void *) mca_coll_modeltuned_sm_bcast, 1},
    {"mca_coll_modeltuned_sm_reduce", (void *) mca_coll_modeltuned_sm_reduce, 1},
    {"mca_coll_modeltuned_sm_allreduce", (void *) mca_coll_modeltuned_sm_allreduce, 1},
    {"mca_coll_modeltuned_sm_barrier", (void *) mca_coll_modeltuned_sm_barrier, 1},
    {"mca_coll_modeltuned_adapt_bcast", (void *) mca_coll_modeltuned_adapt_bcast, 2},
    {"mca_coll_modeltuned_adapt_reduce", (void *) mca_coll_modeltuned_adapt_reduce, 2},
    {"mca_coll_modeltuned_xhc_bcast", (void *) mca_coll_modeltuned_xhc_bcast, 3},
    {"mca_coll_modeltuned_xhc_reduce", (void *) mca_coll_modeltuned_xhc_reduce, 3},
    {"mca_coll_modeltuned_xhc_allreduce", (void *) mca_coll_modeltuned_xhc_allreduce, 3},
    {"mca_coll_modeltuned_xhc_barrier", (void *) mca_coll_modeltuned_xhc_barrier, 3},
    {"mca_coll_modeltuned_acoll_bcast", (void *) mca_coll_modeltuned_acoll_bcast, 0},
    {"mca_coll_modeltuned_acoll_reduce", (void *) mca_coll_modeltuned_acoll_reduce, 4},
    {"mca_coll_modeltuned_acoll_allreduce", (void *) mca_coll_modeltuned_acoll_allreduce, 4},
    {"mca_coll_modeltuned_acoll_barrier", (void *) mca_coll_modeltuned_acoll_barrier, 4},
    {"mca_coll_modeltuned_acoll_allgather", (void *) mca_coll_modeltuned_acoll_allgather, 0},
    {"mca_coll_modeltuned_acoll_alltoall", (void *) mca_coll_modeltuned_acoll_alltoall, 0},
};

void *mca_coll_modeltuned_foreign_entry(const char *name)
{
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; ++i)
        if (0 == strcmp(entries[i].name, name))
            return entries[i].fn;
    return NULL;
}

/* 1 + the component's index where the entry `name` only passes the call on to its private
 * communicator (the entry point may do that itself: mca_coll_modeltuned_runs_foreign), else 0. */
int mca_coll_modeltuned_foreign_direct(const char *name)
{
    for (size_t i = 0; i < sizeof entries / sizeof entries[0]; ++i)
        if (0 == strcmp(entries[i].name, name))
            return entries[i].direct;
    return 0;
}
