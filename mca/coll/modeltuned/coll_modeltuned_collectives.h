/*
 * The collectives modeltuned decides: the one list. Each has one file of its own
 * (coll_modeltuned_<name>.c: its entry point, its calling conventions and its table,
 * mca_coll_modeltuned_collective_t) and one family in the model (MT_OP_<NAME>). Everything else
 * in the component (parameters, counters, publishing, installing, the guard) loops over the
 * tables; docs/design.md, "Adding a collective", lists what a new one touches.
 */
#ifndef MCA_COLL_MODELTUNED_COLLECTIVES_H
#define MCA_COLL_MODELTUNED_COLLECTIVES_H

#include <stdbool.h>
#include <stddef.h>

#include "model/capi/modeltuned_model.h"

/* X(name, NAME, shape) per collective, in the model's order (MT_OP_<NAME>). The shape says which
 * call kinds it is decided by: PLAIN, one; REDUCTION, three, by its operation
 * (MCA_COLL_MODELTUNED_REDUCTION_*). */
#define MCA_COLL_MODELTUNED_COLLECTIVES(X) \
    X(bcast, BCAST, PLAIN)                 \
    X(reduce, REDUCE, REDUCTION)           \
    X(allreduce, ALLREDUCE, REDUCTION)     \
    X(barrier, BARRIER, PLAIN)             \
    X(allgather, ALLGATHER, PLAIN)         \
    X(alltoall, ALLTOALL, PLAIN)

#define MCA_COLL_MODELTUNED_KINDS_PLAIN     1
#define MCA_COLL_MODELTUNED_KINDS_REDUCTION 3

/* A reduction's call kinds follow its first, by what the operation allows (every rank knows it
 * from the operation alone): */
enum {
    /* an intrinsic operation (Open MPI allows them on predefined datatypes only, which matching
     * ranks share): every algorithm */
    MCA_COLL_MODELTUNED_REDUCTION_INTRINSIC = 0,
    /* a commutative user-defined operation: it sees each rank's own datatype, which may differ
     * between ranks, so the message must move whole (unsegmented, unsplit) */
    MCA_COLL_MODELTUNED_REDUCTION_USER = 1,
    /* a non-commutative (user-defined) operation: whole and order-preserving */
    MCA_COLL_MODELTUNED_REDUCTION_ORDERED = 2
};

/* The call kinds: MCA_COLL_MODELTUNED_KIND_<NAME> is each collective's first; its cache rows and
 * counters are per kind. */
#define MCA_COLL_MODELTUNED_KIND_ENTRY(name, NAME, shape)                          \
    MCA_COLL_MODELTUNED_KIND_##NAME,                                               \
        MCA_COLL_MODELTUNED_KIND_##NAME##_LAST = MCA_COLL_MODELTUNED_KIND_##NAME + \
                                                 MCA_COLL_MODELTUNED_KINDS_##shape - 1,
enum { MCA_COLL_MODELTUNED_COLLECTIVES(MCA_COLL_MODELTUNED_KIND_ENTRY) MCA_COLL_MODELTUNED_KINDS };
#undef MCA_COLL_MODELTUNED_KIND_ENTRY

/* The list's order, which must be the model's (checked where the tables are listed). */
#define MCA_COLL_MODELTUNED_ORDER_ENTRY(name, NAME, shape) MCA_COLL_MODELTUNED_ORDER_##NAME,
enum {
    MCA_COLL_MODELTUNED_COLLECTIVES(MCA_COLL_MODELTUNED_ORDER_ENTRY) MCA_COLL_MODELTUNED_LISTED
};
#undef MCA_COLL_MODELTUNED_ORDER_ENTRY

/* Any collective's function: its own file casts it back to its type. */
typedef void (*mca_coll_modeltuned_fn_t)(void);

/* A collective's table: what the shared code needs to know of it. */
typedef struct mca_coll_modeltuned_collective_t {
    const char *name; /* "bcast": its parameters, counters, lines and published settings */
    int op;           /* MT_OP_*: its family in the model */
    int first_kind;   /* MCA_COLL_MODELTUNED_KIND_<NAME> */
    int kinds;        /* 1, or a reduction's 3 */
    /* Where its function and module are, in a communicator's c_coll and in a module: the
     * previous component's, and modeltuned's own */
    size_t comm_fn, comm_module, module_fn;
    mca_coll_modeltuned_fn_t entry;        /* modeltuned's entry point */
    int first_convention, last_convention; /* its calling conventions, MT_CALL_* */
} mca_coll_modeltuned_collective_t;

/* Its table's declaration and how the list refers to it. */
#define MCA_COLL_MODELTUNED_COLLECTIVE_DECLARE(name, NAME, shape) \
    extern const mca_coll_modeltuned_collective_t mca_coll_modeltuned_collective_##name;
MCA_COLL_MODELTUNED_COLLECTIVES(MCA_COLL_MODELTUNED_COLLECTIVE_DECLARE)
#undef MCA_COLL_MODELTUNED_COLLECTIVE_DECLARE

/* [MT_OP_*]: every collective's table (coll_modeltuned_collectives.c). */
extern const mca_coll_modeltuned_collective_t *const mca_coll_modeltuned_collectives[MT_OPS];

/* The fields of a table that follow from the list: name, family, kinds, slots. */
#define MCA_COLL_MODELTUNED_COLLECTIVE_FIELDS(op_name, NAME)                               \
    .name = #op_name, .op = MT_OP_##NAME, .first_kind = MCA_COLL_MODELTUNED_KIND_##NAME,   \
    .kinds = MCA_COLL_MODELTUNED_KIND_##NAME##_LAST - MCA_COLL_MODELTUNED_KIND_##NAME + 1, \
    .comm_fn = offsetof(mca_coll_base_comm_coll_t, coll_##op_name),                        \
    .comm_module = offsetof(mca_coll_base_comm_coll_t, coll_##op_name##_module),           \
    .module_fn = offsetof(mca_coll_base_module_t, coll_##op_name)

/* The collective (MT_OP_*) of a call kind, and its name in lines and messages. */
static inline int mca_coll_modeltuned_kind_op(int kind)
{
    int op = 0;
    while (op + 1 < MT_OPS && kind >= mca_coll_modeltuned_collectives[op + 1]->first_kind)
        ++op;
    return op;
}
static inline const char *mca_coll_modeltuned_op_name(int op)
{
    return mca_coll_modeltuned_collectives[op]->name;
}
/* A call kind's place among its collective's (MCA_COLL_MODELTUNED_REDUCTION_*; 0 for a plain
 * collective's one kind). */
static inline int mca_coll_modeltuned_kind_variant(int kind)
{
    return kind - mca_coll_modeltuned_collectives[mca_coll_modeltuned_kind_op(kind)]->first_kind;
}

#endif /* MCA_COLL_MODELTUNED_COLLECTIVES_H */
