/* C interface of the model library for the Open MPI component (which is C). No C++ exception
 * crosses it: every failure is a return value plus a one-line message in `err`. */
#ifndef MODELTUNED_MODEL_H
#define MODELTUNED_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "model/collectives/list.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mt_table mt_table;
typedef struct mt_comm_model mt_comm_model;

/* MT_OP_<NAME> per collective of model/collectives/list.h, numbered in its order from 0 (MT_OP_BCAST
 * = 0, ... MT_OP_ALLTOALL = 5), and MT_OPS = 6 of them. */
#define MT_OP_ENUMERATOR(name, NAME, checks_version) MT_OP_##NAME,
enum { MT_COLLECTIVES(MT_OP_ENUMERATOR) MT_OPS };
#undef MT_OP_ENUMERATOR
enum { MT_CHANNELS = 4 };

/* hwloc logical indices of the objects the rank is bound inside; -1 = spans several/unknown. */
typedef struct mt_place {
  int32_t node, package, numa, l3, core;
} mt_place;

typedef struct mt_decision {
  int32_t algorithm; /* tuned's algorithm number; 0: keep Open MPI's default (no candidate
                        beat its prediction by the margin): hand the call back */
  uint32_t segsize;  /* bytes, 0 = unsegmented */
  int32_t fanout;    /* chains / tree fan-out / radix; 0 when not used */
  double predicted_us;
  int32_t runner_up_algorithm; /* 0 when there was a single candidate */
  uint32_t runner_up_segsize;
  int32_t runner_up_fanout;
  double runner_up_us;
  double default_us; /* Open MPI's default predicted for this call; 0 when it is not a candidate
                        (narrowed algorithm lists) or cannot be predicted. The component's guard
                        spaces its comparisons by default_us / predicted_us */
} mt_decision;

/* One call as the component sees it. Every rank must pass the same values (derived from the type
 * signature and the operation, never from a rank's own datatype), or ranks decide differently. */
typedef struct mt_call {
  int32_t op; /* MT_OP_* */
  int32_t root;
  uint64_t count; /* elements of type_size bytes */
  uint64_t type_size;
  int32_t commutative;
  int32_t whole_message; /* 1: ranks' datatypes may cut the message differently (user-defined
                            operation): only algorithms that move it whole, unsegmented */
  int32_t objective;     /* MT_OBJECTIVE_*: what the predictions minimise */
} mt_call;

/* What the model minimises (coll_modeltuned_objective): the time from the first rank's start to
 * the last rank's end, or each rank's own time averaged over ranks (OSU's latency). */
enum { MT_OBJECTIVE_COMPLETION = 0, MT_OBJECTIVE_RANK_MEAN = 1 };

/* How an algorithm's ompi_coll_base_* function takes its parameters after the common ones:
 * MT_CALL_<NAME> per calling convention of model/collectives/list.h (which says what each takes),
 * numbered in its order from 0 (MT_CALL_BCAST = 0, ... MT_CALL_ALLTOALL_ONE_LAYOUT = 16). */
#define MT_CALL_ENUMERATOR(name, NAME) MT_CALL_##NAME,
enum { MT_CALLING_CONVENTIONS(MT_CALL_ENUMERATOR) MT_CALLS };
#undef MT_CALL_ENUMERATOR

/* One algorithm of the registry (model/registry), for the component's dispatch table and
 * parameter help. The strings live as long as the library. */
typedef struct mt_algorithm_info {
  int32_t id;       /* tuned's number */
  const char *name; /* modeltuned's name ("bintree") */
  const char *description;
  const char *ompi_function; /* symbol of the ompi_coll_base_* function that runs it */
  int32_t convention;        /* MT_CALL_* */
  int32_t splits;            /* 1: cuts the message into parts even unsegmented */
  const char *tuned_name;    /* tuned's name ("binary_tree"), accepted in lists too; may be "" */
  const char *since;         /* the first Open MPI line that has it: "4.1", "5.0" or "6.0" */
  const char *until;         /* the last one */
  const char *component;     /* "" for Open MPI's base algorithms that tuned runs; else the coll
                                component whose code runs it ("sm"), through ompi_function, the
                                component's own entry for it */
} mt_algorithm_info;

/* Algorithms of an operation in registry order: index 0 .. mt_algorithm_count(op) - 1. */
int mt_algorithm_count(int op);
/* 0 and *out filled, or -1 for an index out of range. */
int mt_algorithm_at(int op, int index, mt_algorithm_info *out);

/* The algorithm Open MPI's tuned runs without rules (coll_tuned_decision_fixed.c) for a call of
 * `bytes` bytes on `comm_size` ranks, and in *fanout the fan-out tuned passes with it (0; k-nomial:
 * the radix's default, 4). tests/mpi/fixed_rule.c compares it with tuned's own choice. */
int mt_fixed_rule(int op, uint64_t bytes, int comm_size, int commutative, int32_t *fanout);
/* One message of a schedule: to whom, how many elements. */
typedef struct mt_send {
  int32_t to;
  uint64_t count;
} mt_send;
/* The messages `rank` sends, in order, in Open MPI's algorithm `algorithm` (tuned's number) of
 * collective `op` on `comm_size` ranks for a commutative call of `count` elements of `type_size`
 * bytes, with segment size `segsize` (allreduce's segmented ring) and the fan-out or radix tuned
 * passes when forced to the algorithm (coll_tuned_<op>_algorithm), after Open MPI's silent
 * fallbacks (an allreduce ring with count < P runs recursive doubling, ...): the family's rounds
 * (model/collectives/<op>/schedule.hpp), which the model's plans are built from. Writes at most
 * `capacity` and returns how many there are; -1 for an unknown algorithm, for a collective whose
 * algorithms are trees (bcast, reduce), and for allreduce's nonoverlapping (2), which runs the
 * communicator's own reduce and bcast. tests/mpi/schedules.c compares them with what
 * libmpi sends. */
int mt_schedule_sends(int op, int algorithm, int comm_size, uint64_t count, uint64_t type_size, uint32_t segsize,
                      int rank, mt_send *out, int capacity);

/* Loads and validates a calibration table. NULL on failure with the reason in err. */
mt_table *mt_table_load(const char *path, char *err, size_t errlen);
void mt_table_free(mt_table *table);
uint64_t mt_table_checksum(const mt_table *table);

/* Checks an algorithm list MCA parameter ("" or "all", or modeltuned's or tuned's names or tuned's
 * numbers, separated by commas).
 * Returns 0 and fills *mask, or -1 with the reason in err. */
int mt_parse_algorithms(int op, const char *spec, uint32_t *mask, char *err, size_t errlen);
const char *mt_algorithm_name(int op, int algorithm);
/* "chain(fanout=4,segsize=16KiB)" into buf. */
void mt_describe(int op, int algorithm, uint32_t segsize, int32_t fanout, char *buf, size_t len);

/* The Open MPI line the process runs under, "4.1" or "5.0" (or a release of one): the default the
 * models weigh their picks against follows it (model/schedule/ompi_version.hpp). Applies to models
 * created afterwards; 4.1 until called. -1: not a line the model knows. */
int mt_set_ompi_version(const char *series);

/* Model of one communicator, with the algorithms allowed per op ([MT_OP_*], bit = tuned's number).
 * NULL (reason in err) when the placement needs a channel the table does not calibrate. han_fallback_ops (1 <<
 * MT_OP_*): the ops whose calls handed back go to han (Open MPI 5.0 across nodes). Where a node holds two or more of
 * the ranks han runs its hierarchical algorithm, which a pick leaves only where the table's checks of han say so
 * (model/select/margin.hpp, kHanDefaultCheck); elsewhere han hands calls to tuned, whose fixed
 * rule is then the default (model/select/ompi_fixed.hpp, han_runs_hierarchical). */
mt_comm_model *mt_comm_model_create(const mt_table *table, int nranks, const mt_place *places,
                                    const uint32_t allowed[MT_OPS], int han_fallback_ops, char *err, size_t errlen);
/* The ops (1 << MT_OP_*) whose default on this communicator is han's hierarchical algorithm. */
int mt_comm_model_han_default_ops(const mt_comm_model *model);
void mt_comm_model_free(mt_comm_model *model);
/* The ops (bits 1 << MT_OP_*) the component leaves to the previous component on this
 * communicator, computed once per shared model and objective, the same on every rank (they read
 * only the table and the placement):
 * - *cannot_leave: no call of the op can leave Open MPI's default, whatever its size, root or
 *   objective (the table's checks cover nothing of this communicator's shape and size, and every
 *   algorithm is allowed);
 * - *keeps_default: every call of the op it decides keeps Open MPI's default under objective
 *   (MT_OBJECTIVE_*): known for the rootless collectives that carry no operation, barrier and the
 *   block exchanges (modeltuned::Selector::keeps_default_everywhere).
 * Returns 0, or -1 where they could not be computed (nothing is left then: the component decides
 * call by call). */
int mt_comm_model_ops_left(mt_comm_model *model, int objective, int *cannot_leave, int *keeps_default);
/* Channels the communicator's ranks talk through, "cache,core" style, into buf. */
void mt_comm_model_channels(const mt_comm_model *model, char *buf, size_t len);

/* What mt_decide says about its decision besides mt_decision, for a log line and the decision
 * file: filled when mt_decide is given one (NULL: nothing of it is wanted). */
typedef struct mt_decision_report {
  int32_t want_json;  /* in: 1 to receive json */
  char pick[96];      /* out: the pick's label, "chain(fanout=4,segsize=16KiB)"; "none" when nothing
                         can run */
  char runner_up[96]; /* out: the runner-up's label (mt_decision's runner_up_*); "none" without one */
  double margin;      /* out: the factor a pick must beat Open MPI's default by; 1 when the default
                         is not a candidate (narrowed algorithm lists) */
  char *json;         /* out: with want_json, a malloc'd one-line JSON object of the whole decision
                         (every candidate's prediction and Open MPI's default), also when nothing
                         can run; the caller frees it. NULL otherwise, or if it could not be built */
} mt_decision_report;

/* Runs the model for one call. 0 on success; -1 when no allowed candidate can be predicted.
 * report may be NULL. */
int mt_decide(mt_comm_model *model, const mt_call *call, mt_decision *out, mt_decision_report *report);

/* Does the table's measured topology (provenance.hwloc.signature, "pack:2 numa:8 l3:32 core:128
 * pu:128") match this node's object counts? 1: it differs, with one line for a verbose warning in
 * msg; 0: it matches (only the counts the table records are compared); -1: the table records no
 * signature (msg says so). model/capi/table_info.cpp. */
int mt_table_topology_mismatch(const mt_table *table, int packages, int numa, int l3, int cores, int pus, char *msg,
                               size_t len);

#ifdef __cplusplus
}
#endif
#endif
