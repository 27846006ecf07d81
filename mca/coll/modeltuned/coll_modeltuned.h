/*
 * modeltuned: chooses the MPI_Bcast and MPI_Reduce algorithm of each communicator from a
 * calibrated point-to-point performance model (model/), and runs it through Open MPI's own
 * ompi_coll_base_* implementations. Every other collective stays with the components below.
 */
#ifndef MCA_COLL_MODELTUNED_H
#define MCA_COLL_MODELTUNED_H

#include "ompi_config.h"

#include "mpi.h"
#include "ompi/communicator/communicator.h"
#include "ompi/mca/coll/base/base.h"
#include "ompi/mca/coll/coll.h"
#include "opal/util/output.h"

#include "model/capi/modeltuned_model.h"

BEGIN_C_DECLS

/* Decisions are cached per power-of-two size class: class k holds messages of [2^(k-1), 2^k)
 * bytes, class 0 the empty message. */
#define MCA_COLL_MODELTUNED_SIZE_CLASSES 65
/* Tuned's algorithm numbers go up to 9 (bcast); index 0 counts fallbacks. */
#define MCA_COLL_MODELTUNED_COUNTERS 10

typedef struct mca_coll_modeltuned_component_t {
    mca_coll_base_component_2_0_0_t super;

    /* MCA parameters (defaults and meaning at their registration). */
    int priority;
    int verbose;
    char *calibration_file;
    char *bcast_algorithms;
    char *reduce_algorithms;
    char *decision_file;
    bool oversubscribed;         /* decide on oversubscribed nodes too */
    bool decision_file_warned;   /* its write error is reported once */
    bool table_mismatch_reported;  /* ranks without the same table: reported once */

    /* MPI_T counters (coll_modeltuned_{bcast,reduce}_calls): calls per tuned algorithm number,
     * index 0 = handed to the previous component. Plain increments: exact unless several threads
     * run collectives at once. */
    unsigned long long calls[2][MCA_COLL_MODELTUNED_COUNTERS];

    int output;                  /* opal_output stream, "coll:modeltuned:" lines */
    mt_table *table;             /* NULL: no usable table, modeltuned steps aside */
    char *table_path;            /* the file the table came from */
    char *disabled_reason;       /* why modeltuned steps aside everywhere, or NULL */
} mca_coll_modeltuned_component_t;

OMPI_MODULE_DECLSPEC extern mca_coll_modeltuned_component_t mca_coll_modeltuned_component;

typedef enum {
    MCA_COLL_MODELTUNED_UNPLACED = 0,  /* placement not exchanged yet: done on first use */
    MCA_COLL_MODELTUNED_READY,
    MCA_COLL_MODELTUNED_FALLBACK       /* setup failed on some rank: the previous component runs */
} mca_coll_modeltuned_state_t;

typedef struct mca_coll_modeltuned_choice_t {
    int32_t root;        /* -1: not decided yet */
    mt_decision decision;  /* algorithm 0: nothing can run, hand the call to the previous component */
} mca_coll_modeltuned_choice_t;

/* Decisions for roots other than the last one used per class, so programs that rotate the root
 * still pay a lookup: open addressing on (op, commutativity, size class, root + 1). */
typedef struct mca_coll_modeltuned_remembered_t {
    uint64_t key;        /* 0: empty slot */
    mt_decision decision;
} mca_coll_modeltuned_remembered_t;

typedef struct mca_coll_modeltuned_module_t {
    mca_coll_base_module_t super;

    mca_coll_modeltuned_state_t state;
    mt_comm_model *model;
    uint32_t allowed[2];         /* [op] algorithms this communicator may use, from the parameters
                                    as they were when it was created */

    /* What ran before modeltuned was enabled: the fallback. */
    mca_coll_base_module_bcast_fn_t previous_bcast;
    mca_coll_base_module_t *previous_bcast_module;
    mca_coll_base_module_reduce_fn_t previous_reduce;
    mca_coll_base_module_t *previous_reduce_module;

    /* [op][commutative][size class] for the last root used; bcast uses commutative = 1 only. */
    mca_coll_modeltuned_choice_t choices[2][2][MCA_COLL_MODELTUNED_SIZE_CLASSES];
    mca_coll_modeltuned_remembered_t *remembered;  /* every decision made, by root */
    size_t remembered_capacity, remembered_count;
} mca_coll_modeltuned_module_t;
OBJ_CLASS_DECLARATION(mca_coll_modeltuned_module_t);

/* Component (coll_modeltuned_module.c) */
void mca_coll_modeltuned_prepare(void);
int mca_coll_modeltuned_init_query(bool enable_progress_threads, bool enable_mpi_threads);
mca_coll_base_module_t *mca_coll_modeltuned_comm_query(struct ompi_communicator_t *comm,
                                                       int *priority);

/* Placement exchange and decisions (coll_modeltuned_placement.c). mca_coll_modeltuned_decide
 * serves a primary-cache miss: from the decisions remembered for other roots, or by running the
 * model once; NULL when nothing can run (remembered too). */
int mca_coll_modeltuned_setup(mca_coll_modeltuned_module_t *module,
                              struct ompi_communicator_t *comm);
const mt_decision *mca_coll_modeltuned_decide(mca_coll_modeltuned_module_t *module,
                                              struct ompi_communicator_t *comm, int op,
                                              size_t count, size_t type_size, int root,
                                              int commutative);

/* Collectives */
int mca_coll_modeltuned_bcast(void *buf, int count, struct ompi_datatype_t *dtype, int root,
                              struct ompi_communicator_t *comm, mca_coll_base_module_t *module);
int mca_coll_modeltuned_reduce(const void *sbuf, void *rbuf, int count,
                               struct ompi_datatype_t *dtype, struct ompi_op_t *op, int root,
                               struct ompi_communicator_t *comm, mca_coll_base_module_t *module);

static inline int mca_coll_modeltuned_size_class(size_t bytes)
{
    return 0 == bytes ? 0 : 64 - __builtin_clzll((unsigned long long) bytes);
}

/* The hot path: the cached decision for this (op, commutativity, size class, root); on a miss the
 * model runs (and, on the communicator's first call, the placement is exchanged). NULL: hand the
 * call to the previous component. */
static inline const mt_decision *mca_coll_modeltuned_choice(mca_coll_modeltuned_module_t *m,
                                                            struct ompi_communicator_t *comm,
                                                            int op, int commutative, size_t count,
                                                            size_t type_size, int root)
{
    if (OPAL_UNLIKELY(MCA_COLL_MODELTUNED_READY != m->state) &&
        (MCA_COLL_MODELTUNED_UNPLACED != m->state || OMPI_SUCCESS != mca_coll_modeltuned_setup(m, comm)))
        return NULL;
    const mca_coll_modeltuned_choice_t *choice =
        &m->choices[op][commutative][mca_coll_modeltuned_size_class(count * type_size)];
    if (OPAL_UNLIKELY(choice->root != root))
        return mca_coll_modeltuned_decide(m, comm, op, count, type_size, root, commutative);
    return OPAL_LIKELY(0 != choice->decision.algorithm) ? &choice->decision : NULL;
}

/* Level-20 trace of what ran, on every rank; d == NULL: the previous component ran it. */
void mca_coll_modeltuned_trace(struct ompi_communicator_t *comm, int op, size_t bytes, int root,
                               const mt_decision *d);

END_C_DECLS

#endif /* MCA_COLL_MODELTUNED_H */
