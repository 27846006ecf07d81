/*
 * modeltuned: chooses the algorithm of each collective it decides (coll_modeltuned_collectives.h)
 * for each communicator from a calibrated point-to-point performance model (model/), and runs it
 * through Open MPI's own ompi_coll_base_* implementations. Every other collective stays with the
 * components below.
 */
#ifndef MCA_COLL_MODELTUNED_H
#define MCA_COLL_MODELTUNED_H

#include "ompi_config.h"

#include "mpi.h"
#include "ompi/communicator/communicator.h"
#include "ompi/mca/coll/base/base.h"
#include "ompi/mca/coll/coll.h"
#include "opal/util/output.h"

#include "coll_modeltuned_collectives.h"
#include "coll_modeltuned_compat.h"

#include "model/capi/modeltuned_model.h"

BEGIN_C_DECLS

/* Decisions are cached per power-of-two size class: class k holds messages of [2^(k-1), 2^k)
 * bytes, class 0 the empty message. */
#define MCA_COLL_MODELTUNED_SIZE_CLASSES 65
/* A row's slots are cleared in groups of 2^GROUP_BITS size classes (mca_coll_modeltuned_module_t's
 * ready); bit 15 of ready says its counters are. */
#define MCA_COLL_MODELTUNED_GROUP_BITS  3
#define MCA_COLL_MODELTUNED_CALLS_READY (1u << 15)

/* Algorithm numbers modeltuned can dispatch and count: tuned's numbers of each collective. */
#define MCA_COLL_MODELTUNED_MAX_SLOTS 32

/* Other components whose algorithms the model may pick (coll_modeltuned_foreign.c): sm, adapt,
 * xhc, acoll. */
#define MCA_COLL_MODELTUNED_FOREIGN 4
/* A component whose private communicator could not be made on some rank: its picks hand calls
 * back on every rank alike. */
#define MCA_COLL_MODELTUNED_FOREIGN_UNUSABLE ((struct ompi_communicator_t *) 1)

/* Room for a one-line reason (why tuned runs what the user told it), NUL included. */
#define MCA_COLL_MODELTUNED_REASON_MAX 160

/* Published by a process without a usable table (a string): its problem, one line. */
#define MCA_COLL_MODELTUNED_PROBLEM_KEY "coll.modeltuned.problem"
/* What each process publishes at open (64-bit unsigned values, coll_modeltuned_setup.c). */
enum {
    MCA_COLL_MODELTUNED_PUBLISHED_TABLE = 0,      /* the table's checksum, 0: none */
    MCA_COLL_MODELTUNED_PUBLISHED_OVERSUBSCRIBED, /* 1: on an oversubscribed node, step aside */
    MCA_COLL_MODELTUNED_PUBLISHED_HOST,           /* hash of the node name */
    MCA_COLL_MODELTUNED_PUBLISHED_PLACE,          /* package, numa, l3, core of its binding */
    MCA_COLL_MODELTUNED_PUBLISHED_SETTINGS, /* hash of what every rank must share: the algorithm
                                               lists at start, whether tuned was told what to run,
                                               the objective and the guard's settings
                                               (start_settings) */
    MCA_COLL_MODELTUNED_PUBLISHED_KEYS
};

/* Dispatch table entry: the ompi_coll_base_* function of a registry algorithm, resolved at open. */
typedef struct mca_coll_modeltuned_algorithm_t {
    void *fn;           /* NULL: not in the registry or not resolved; never allowed */
    int32_t convention; /* MT_CALL_* */
    const char *name;   /* the registry's name, for traces */
    bool splits;        /* cuts the message into parts even unsegmented */
    int8_t foreign;     /* 1 + another component's index where fn only hands the call as it is
                           to that component's private communicator; 0 otherwise */
    int8_t component;   /* 1 + the index of the other component that runs it; 0: Open MPI's base */
} mca_coll_modeltuned_algorithm_t;

/* The node's packages, NUMA nodes, L3 caches, cores and PUs, counted where this process was
 * placed at open: init_query compares them with the table's topology without a topology of its
 * own. */
#define MCA_COLL_MODELTUNED_NODE_OBJECTS 5
typedef struct mca_coll_modeltuned_node_t {
    bool known;
    int objects[MCA_COLL_MODELTUNED_NODE_OBJECTS];
} mca_coll_modeltuned_node_t;

typedef struct mca_coll_modeltuned_component_t {
    mca_coll_modeltuned_base_component_t super;

    /* MCA parameters (defaults and meaning at their registration). */
    int priority;
    int verbose;
    char *calibration_file;
    char *algorithm_lists[MT_OPS]; /* [op] coll_modeltuned_<name>_algorithms */
    char *decision_file;
    bool oversubscribed;     /* decide on oversubscribed nodes too */
    int objective;           /* MT_OBJECTIVE_*: what the model minimises */
    bool objective_rejected; /* the value given was not a known objective: the default stays */
    unsigned reported;       /* MCA_COLL_MODELTUNED_ONCE_* already reported in this process */
    uint64_t start_settings; /* what this process published under ..._PUBLISHED_SETTINGS */

    /* [op], indexed by tuned's algorithm number: slots = the registry's largest number + 1 (one
     * width for every collective, as MPI_T readers such as modeltuned-bench expect). */
    int slots;
    mca_coll_modeltuned_algorithm_t *algorithms[MT_OPS]; /* the dispatch table, built at open */
    uint32_t runnable[MT_OPS]; /* mask of the algorithms whose function was resolved */
    /* MCA_COLL_MODELTUNED_TRACE_CALLS (verbose >= 20) and _DELAY_PICKS for this process; each
     * module copies them beside its rows. */
    uint8_t call_flags;
    /* The guard's parameters (coll_modeltuned_guard.c). Those that decide when its windows come
     * and what they conclude are published and compared like the algorithm lists: ranks that
     * differ there would not meet in the same agreement. */
    bool guard;
    int guard_samples;      /* calls of each arm a window times */
    double guard_budget;    /* share of a watched pick's time its windows may cost */
    double guard_tolerance; /* the pick loses a window when slower than the default by more */
    int guard_test_delay_us, guard_test_delay_rank; /* tests only: slow the picks */
    /* What another component's private communicator is taken to cost
     * (coll_modeltuned_other_cost_us): a communicator's picks of it run Open MPI's default until
     * they would have saved that much. Read by comm_query; its value at start is published and
     * compared like the guard's settings, and MPI_T writes must be the same on every rank: the
     * ranks make it together. */
    double other_cost_us;
    /* MPI_T counters coll_modeltuned_takebacks and coll_modeltuned_guard_windows, per op; rare
     * events, counted under counters_lock. */
    unsigned long long takebacks[MT_OPS], guard_windows[MT_OPS];
    /* MPI_T counters (coll_modeltuned_<name>_calls), index 0 = Open MPI's default
     * (handed to the previous component): the calls of modules gone; a call counts
     * in its module's row (mca_coll_modeltuned_row_t), and a read adds the live modules' (live,
     * under counters_lock in coll_modeltuned_counters.c). Plain increments: exact unless several
     * threads run collectives at once. */
    unsigned long long calls[MT_OPS][MCA_COLL_MODELTUNED_MAX_SLOTS];
    struct mca_coll_modeltuned_module_t **live;
    size_t live_count, live_capacity;

    mca_coll_modeltuned_node_t node; /* counted at open, with a table */
    uint64_t place;                  /* where this process sits, packed; 0: not placed */
    int output;                      /* opal_output stream, "coll:modeltuned:" lines */
    mt_table *table;                 /* NULL: no usable table, modeltuned steps aside */
    char *table_path;                /* the file the table came from */
    char *table_in_use; /* coll_modeltuned_table: the file a job reads, "" for none (register) */
    const char *disabled_reason; /* why modeltuned steps aside everywhere, or NULL */
    char *problem;               /* the input problem behind it, one line, published in the modex */
} mca_coll_modeltuned_component_t;

MCA_COLL_MODELTUNED_DECLSPEC extern mca_coll_modeltuned_component_t mca_coll_modeltuned_component;

/* Problems reported once per process (mca_coll_modeltuned_once). */
enum {
    MCA_COLL_MODELTUNED_ONCE_DECISION_FILE = 1 << 0,  /* the decision file cannot be written */
    MCA_COLL_MODELTUNED_ONCE_TABLE_MISMATCH = 1 << 1, /* ranks without the same table */
    MCA_COLL_MODELTUNED_ONCE_LISTS_MISMATCH = 1 << 2  /* ranks that started with other algorithm
                                                         lists */
};

/* FNV-1a of a string: what a process publishes for values every rank compares (its node's name,
 * the guard's settings). */
static inline uint64_t mca_coll_modeltuned_hash_string(const char *s)
{
    uint64_t hash = 1469598103934665603ULL;
    for (; NULL != s && *s; ++s)
        hash = (hash ^ (unsigned char) *s) * 1099511628211ULL;
    return hash;
}

/* True the first time it is asked about `problem` (MCA_COLL_MODELTUNED_ONCE_*) in this process. */
static inline bool mca_coll_modeltuned_once(unsigned problem)
{
    unsigned *reported = &mca_coll_modeltuned_component.reported;
    if (*reported & problem)
        return false;
    *reported |= problem;
    return true;
}

typedef enum {
    MCA_COLL_MODELTUNED_UNPLACED = 0, /* no model yet: built at enable */
    MCA_COLL_MODELTUNED_READY,
    MCA_COLL_MODELTUNED_FALLBACK, /* setup failed on some rank: the previous component runs */
    MCA_COLL_MODELTUNED_DISABLED  /* disabled (the communicator is going): as FALLBACK */
} mca_coll_modeltuned_state_t;

/* A decision: what a call runs (the model's mt_decision without the predictions, which only the
 * decide trace and the decision file show), with the algorithm's dispatch entry copied in: a call
 * then loads one cache line of its own, not the dispatch table too (between large messages every
 * load misses, and dependent misses add up). 24 bytes. */
typedef struct mca_coll_modeltuned_decision_t {
    void *fn;         /* the algorithm's ompi_coll_base_* function; NULL when algorithm is 0 */
    uint32_t segsize; /* bytes, 0 = unsegmented */
    /* Calls left before the guard's next step on this decision (coll_modeltuned_guard.c). One it
     * does not watch starts at UINT32_MAX: the call path decrements and tests every decision alike,
     * and the rare wrap-around finds nothing watched and starts over. */
    uint32_t countdown;
    union {
        int16_t fanout;    /* chains / tree fan-out / radix; 0 when not used */
        uint16_t saves_ns; /* another component's pick (`component`), which takes no fan-out: what
                              the model predicts each call saves against Open MPI's default, in ns
                              (at most 65535), counted until its private communicator is made */
    };
    int8_t algorithm;  /* tuned's number; 0: Open MPI's default was kept, or nothing can run:
                          hand the call to the previous component */
    int8_t convention; /* MT_CALL_* of fn */
    bool splits;       /* the algorithm cuts the message into parts even unsegmented */
    uint8_t guard;     /* 1 + the index of the module's guard watching it; 0: none */
    int8_t foreign;    /* the algorithm's `foreign` (mca_coll_modeltuned_algorithm_t): the entry
                          point may call that component itself (mca_coll_modeltuned_runs_foreign) */
    int8_t component; /* the algorithm's `component`: its calls wait for the private communicator */
} mca_coll_modeltuned_decision_t;
_Static_assert(sizeof(mca_coll_modeltuned_decision_t) == 24, "a decision is 24 bytes");

/* A cached decision and its key, 0 when the slot is empty (so a zeroed row is empty): in a module's
 * rows the root it was decided for, + 1; in the table of remembered decisions (kind, size class,
 * root + 1), mca_coll_modeltuned_decide. */
typedef struct mca_coll_modeltuned_slot_t {
    uint64_t key;
    mca_coll_modeltuned_decision_t decision;
} mca_coll_modeltuned_slot_t;

/* A call kind's cache and counters in a module: the calls it ran per tuned algorithm number (index
 * 0: Open MPI's default), then [size class] -> the decision for the last root used. A call touches
 * its slot's line and its counter's, which for the small messages where it shows sit on the same
 * page: between large messages each page a call touches costs a TLB miss that tuned's own path
 * does not pay (on the 2-core VM a kept default's 1-256 B calls ran 1.1-1.2x tuned's while the
 * counters were the component's, docs/validation.md "Inside one job"). */
typedef struct mca_coll_modeltuned_row_t {
    unsigned long long calls[MCA_COLL_MODELTUNED_MAX_SLOTS];
    mca_coll_modeltuned_slot_t slots[MCA_COLL_MODELTUNED_SIZE_CLASSES];
    uint8_t in_remembered[MCA_COLL_MODELTUNED_SIZE_CLASSES]; /* slots[c] came from `remembered` */
} mca_coll_modeltuned_row_t;

/* Watched decisions per communicator: a pick of the model that left Open MPI's default, one per
 * call kind, size class and root, takes one while it runs. Inline in the module, so that watching
 * allocates nothing: every rank watches the same decisions or a window's agreement would not match.
 */
#define MCA_COLL_MODELTUNED_GUARDS 32
/* The most calls of each arm a comparison window may time (coll_modeltuned_guard_samples). */
#define MCA_COLL_MODELTUNED_GUARD_SAMPLES_MAX 16

/* The guard of one watched pick (coll_modeltuned_guard.c): when its next comparison window comes,
 * and what it has timed in the current one; taken back, the call is handed back. Every field that
 * decides what a call runs evolves from call counts and agreed verdicts only, the same on every
 * rank; the timings are the rank's own until the window's agreement sums them. */
typedef struct mca_coll_modeltuned_guard_t {
    uint64_t calls;  /* calls of the decision up to the last step */
    uint32_t armed;  /* the countdown the last step set */
    uint32_t gap;    /* calls between windows; doubles each window the pick wins */
    uint32_t window; /* windows completed */
    int32_t root;
    int8_t kind;
    uint8_t size_class;
    bool in_use;
    uint8_t sampled;      /* calls of the current window run so far; 0 between windows */
    uint8_t losses;       /* consecutive windows the pick lost */
    double expected_gain; /* default / pick: the model's, then the last won window's (the gaps) */
    uint32_t pick_ns[MCA_COLL_MODELTUNED_GUARD_SAMPLES_MAX];
    uint32_t default_ns[MCA_COLL_MODELTUNED_GUARD_SAMPLES_MAX];
} mca_coll_modeltuned_guard_t;

/* What the call path checks in the module's first line besides the rows (call_flags). */
enum {
    MCA_COLL_MODELTUNED_TRACE_CALLS = 1 << 0, /* verbose >= 20: every call traced */
    MCA_COLL_MODELTUNED_DELAY_PICKS = 1 << 1  /* a test slows this rank's picks
                                                 (coll_modeltuned_guard_test_delay_us) */
};

typedef struct mca_coll_modeltuned_module_t {
    mca_coll_base_module_t super;

    /* What a call reads, first thing after the base: MCA_COLL_MODELTUNED_TRACE_CALLS and
     * _DELAY_PICKS (from the component's settings), which parts of the rows are ready, then per
     * call kind its counters and decisions. Inline, not behind pointers, so that a call loads no
     * other line of the module first. A row's counters are cleared on its kind's first call, and
     * its slots a group of size classes at a time, on the first call that reaches the group
     * (ready[kind]: MCA_COLL_MODELTUNED_CALLS_READY and a bit per group; until then the memory is
     * whatever the module's last communicator left): a new communicator clears what its calls
     * reach, not 25 KiB. Slots are empty (key 0) until decided; while the model is not ready they
     * stay empty, so such calls go to decide, which hands them back. */
    uint8_t call_flags;
    uint16_t ready[MCA_COLL_MODELTUNED_KINDS];
    mca_coll_modeltuned_row_t rows[MCA_COLL_MODELTUNED_KINDS];
    /* [op] What ran before modeltuned was enabled: the fallback (its collective's file casts fn
     * back to the collective's type). */
    struct {
        mca_coll_modeltuned_fn_t fn;
        mca_coll_base_module_t *module;
    } previous[MT_OPS];

    mca_coll_modeltuned_state_t state;
    mt_comm_model *model;
    const char
        *fallback[MT_OPS];    /* [op] the component that runs the op's calls modeltuned hands back
                            ("tuned", "han", ...), named in its lines and decision file */
    uint32_t allowed[MT_OPS]; /* [op] algorithms this communicator may use, from the parameters
                            as they were when it was created */
    uint8_t tuned_told;       /* bit op: tuned runs what the user told it for op when this
                                 communicator was created; that op is left to tuned */

    /* Decisions replaced in `rows` by another root's, by root: allocated when a size class
     * first sees a second root. */
    mca_coll_modeltuned_slot_t *remembered;
    size_t remembered_capacity, remembered_count;

    /* [component] The private communicator where it runs (coll_modeltuned_foreign.c): NULL until
     * a call picks it; foreign_retained, bit k: the module holds a reference to it. */
    struct ompi_communicator_t *foreign[MCA_COLL_MODELTUNED_FOREIGN];
    uint8_t foreign_retained;
    bool foreign_creating;
    uint64_t foreign_saved_ns[MCA_COLL_MODELTUNED_FOREIGN]; /* what the picks of it before it was
                                                               made would have saved (saves_ns) */
    uint64_t foreign_cost_ns; /* what they must save first: 0 on MPI_COMM_WORLD, which lives as long
                                 as the job, else coll_modeltuned_other_cost_us at its creation */

    /* The picks watched (coll_modeltuned_guard.c); none while guard_enabled is false. */
    bool guard_enabled;
    /* Guards handed out so far: guards[0 .. guards_used - 1] are initialized (in use or freed), the
     * rest are not, so that a new communicator does not pay to clear them. Last in the module. */
    uint8_t guards_used;
    mca_coll_modeltuned_guard_t guards[MCA_COLL_MODELTUNED_GUARDS];
} mca_coll_modeltuned_module_t;
OBJ_CLASS_DECLARATION(mca_coll_modeltuned_module_t);
_Static_assert((MCA_COLL_MODELTUNED_SIZE_CLASSES - 1) >> MCA_COLL_MODELTUNED_GROUP_BITS < 15,
               "ready has a bit per group of size classes, and MCA_COLL_MODELTUNED_CALLS_READY");
_Static_assert(MT_OPS <= 8, "tuned_told has a bit per collective");

/* coll_modeltuned_component.c: parameters, open, close, modex publishing;
 * coll_modeltuned_module.c: comm_query, enable, disable; coll_modeltuned_setup.c: the placement,
 * from what the ranks published, and the model, at enable. */
int mca_coll_modeltuned_init_query(bool enable_progress_threads, bool enable_mpi_threads);

/* coll_modeltuned_help.c. mca_coll_modeltuned_show_help prints a topic of help-coll-modeltuned.txt
 * on stderr if `here` (the rank that reports a problem); mca_coll_modeltuned_help_dirs_add notes
 * where that file is (at open). */
void mca_coll_modeltuned_show_help(bool here, const char *topic, ...);
void mca_coll_modeltuned_help_dirs_add(void);

/* coll_modeltuned_table.c. mca_coll_modeltuned_table_register: the parameter naming the table a
 * job reads (table_in_use), found at registration; mca_coll_modeltuned_load_table: at open, checks
 * the version and the parameters, then loads that table; NULL, or why modeltuned steps aside in
 * this process (c->problem says it in one line). */
void mca_coll_modeltuned_table_register(mca_coll_modeltuned_component_t *c);
const char *mca_coll_modeltuned_load_table(mca_coll_modeltuned_component_t *c);
mca_coll_base_module_t *mca_coll_modeltuned_comm_query(struct ompi_communicator_t *comm,
                                                       int *priority);
int mca_coll_modeltuned_setup(mca_coll_modeltuned_module_t *module,
                              struct ompi_communicator_t *comm);
/* Where this process sits, packed for the modex, with its node's objects counted into `node`;
 * publishes `values` (the host is filled in here). */
uint64_t mca_coll_modeltuned_place_here(mca_coll_modeltuned_node_t *node);
int mca_coll_modeltuned_publish(const uint64_t values[MCA_COLL_MODELTUNED_PUBLISHED_KEYS]);
/* A place as published (packed in 64 bits), with no node. */
void mca_coll_modeltuned_unpack_place(uint64_t packed, mt_place *place);

/* coll_modeltuned_peers.c: what comm_query and setup read of a communicator's ranks, kept for the
 * last communicator's ranks. The scan: the first rank without this rank's table, or -1 (missing:
 * it has none; first_with_table: no lower rank has this table, the one that reports it); the first
 * rank on an oversubscribed node, or -1; the first other rank that started with other algorithm
 * lists or guard settings, or -1. Every rank reads the same values, so all answer comm_query alike
 * and no rank runs modeltuned's collective while another runs Open MPI's. The places: each rank's,
 * its node the lowest rank on the same host. */
typedef struct mca_coll_modeltuned_scan_t {
    int other;
    bool missing, first_with_table;
    int oversubscribed, other_lists;
} mca_coll_modeltuned_scan_t;
void mca_coll_modeltuned_peers_scan(struct ompi_communicator_t *comm,
                                    mca_coll_modeltuned_scan_t *out);
int mca_coll_modeltuned_peers_places(struct ompi_communicator_t *comm, mt_place *places);
void mca_coll_modeltuned_peers_forget(void);

/* Every key `proc` published at once: values[k] where found[k] (none found: modeltuned is not
 * loaded there). */
void mca_coll_modeltuned_published_all(struct ompi_proc_t *proc,
                                       uint64_t values[MCA_COLL_MODELTUNED_PUBLISHED_KEYS],
                                       bool found[MCA_COLL_MODELTUNED_PUBLISHED_KEYS]);
/* Reads what `procs` published, all at once (under 5.0 the wait for ranks that published nothing
 * is one timeout in all); mca_coll_modeltuned_published then answers from memory. */
void mca_coll_modeltuned_read_published(struct ompi_proc_t **procs, int n);
/* The string `proc` published under `key` (NULL: none), to free. */
char *mca_coll_modeltuned_published_string(struct ompi_proc_t *proc, const char *key);

/* coll_modeltuned_tuned.c: whether tuned runs what the user told it for `op` (MT_OP_*) instead of
 * its fixed rules, and why in `why` (may be NULL). */
bool mca_coll_modeltuned_tuned_is_told(int op, char *why, size_t why_size);
/* Per op, why tuned runs what the user told it, or "": each op's mca_coll_modeltuned_tuned_is_told,
 * with tuned's dynamic rules read once. */
void mca_coll_modeltuned_tuned_told(char told[MT_OPS][MCA_COLL_MODELTUNED_REASON_MAX]);

/* coll_modeltuned_collectives.c: the collectives' names in the list's order, separated by ", " and
 * `last_separator` before the last ("bcast, reduce and allreduce"). */
void mca_coll_modeltuned_collective_names(char *out, size_t size, const char *last_separator);

/* coll_modeltuned_list.c: whether the job's coll component list (--mca coll) leaves out a
 * component its communicators need; if so, which and why in `what`, and the list in `list`. */
bool mca_coll_modeltuned_coll_list_gap(char *what, size_t what_size, char *list, size_t list_size);

/* coll_modeltuned_counters.c: the modules whose row counters the MPI_T counters add up; a module
 * removed adds its counts to the component's; a guard's window concluded on `op` (takeback: and
 * its pick taken back). Thread-safe. The counters' registration (the calls of `op`, the guard's)
 * and, at close, the list of live modules freed. */
void mca_coll_modeltuned_counters_add(mca_coll_modeltuned_module_t *m);
void mca_coll_modeltuned_counters_remove(mca_coll_modeltuned_module_t *m);
void mca_coll_modeltuned_guard_counted(int op, bool takeback);
void mca_coll_modeltuned_counters_register_calls(const mca_coll_modeltuned_component_t *c, int op);
void mca_coll_modeltuned_counters_register_guard(mca_coll_modeltuned_component_t *c);
void mca_coll_modeltuned_counters_close(mca_coll_modeltuned_component_t *c);

/* coll_modeltuned_decide.c. mca_coll_modeltuned_decide serves a miss of the row lookup
 * (coll_modeltuned_call.h) for a call of `size_class`: from the decisions remembered for other
 * roots, or by running the model once; NULL when nothing can run (remembered too). */
mca_coll_modeltuned_decision_t *mca_coll_modeltuned_decide(mca_coll_modeltuned_module_t *module,
                                                           struct ompi_communicator_t *comm,
                                                           int kind, int size_class, size_t count,
                                                           size_t type_size, int root);
/* Whether the counters of `kind`, and its slot of `size_class`, are cleared (ready); prepare
 * clears them where not yet. */
static inline bool mca_coll_modeltuned_calls_ready(const mca_coll_modeltuned_module_t *module,
                                                   int kind)
{
    return 0 != (module->ready[kind] & MCA_COLL_MODELTUNED_CALLS_READY);
}
static inline bool mca_coll_modeltuned_slot_ready(const mca_coll_modeltuned_module_t *module,
                                                  int kind, int size_class)
{
    return 0 != (module->ready[kind] & (1u << (size_class >> MCA_COLL_MODELTUNED_GROUP_BITS)));
}
void mca_coll_modeltuned_calls_prepare(mca_coll_modeltuned_module_t *module, int kind);
void mca_coll_modeltuned_slot_prepare(mca_coll_modeltuned_module_t *module, int kind,
                                      int size_class);

/* coll_modeltuned_record.c, what decide and the guard write. mca_coll_modeltuned_trace: the
 * level-20 line of what ran (d == NULL: fallback). mca_coll_modeltuned_records: whether this rank
 * writes `comm`'s lines of the decision file; mca_coll_modeltuned_record appends one, `object` (a
 * JSON object) after the communicator's fields. */
void mca_coll_modeltuned_trace(struct ompi_communicator_t *comm, int op, size_t bytes, int root,
                               const mca_coll_modeltuned_decision_t *d);
bool mca_coll_modeltuned_records(struct ompi_communicator_t *comm);
void mca_coll_modeltuned_record(mca_coll_modeltuned_module_t *m, struct ompi_communicator_t *comm,
                                int op, const char *object);

/* coll_modeltuned_guard.c. mca_coll_modeltuned_guard_watch: called with a new pick `d` of the
 * model (`decision`) for (kind, size class, root); watches it when the guard is on, comparing it
 * with Open MPI's default, the call handed back. */
void mca_coll_modeltuned_guard_watch(mca_coll_modeltuned_module_t *m, int kind, int size_class,
                                     int root, mca_coll_modeltuned_decision_t *d,
                                     const mt_decision *decision);
/* The guard's MCA parameters, registered; whether their values are in range. */
void mca_coll_modeltuned_guard_register(mca_coll_modeltuned_component_t *c);
bool mca_coll_modeltuned_guard_parameters_valid(const mca_coll_modeltuned_component_t *c);

/* coll_modeltuned_dispatch.c: the dispatch table, built at open from the model's registry. */
int mca_coll_modeltuned_dispatch_open(void);

/* coll_modeltuned_foreign.c: other components' algorithms. The entry that runs one, by the name the
 * registry gives it (NULL: none); whether it only hands the call on; a component's index (-1:
 * none); whether Open MPI loaded a component; the module's private communicators freed (at
 * disable). */
void *mca_coll_modeltuned_foreign_entry(const char *name);
int mca_coll_modeltuned_foreign_direct(const char *name);
int mca_coll_modeltuned_foreign_index(const char *component);
bool mca_coll_modeltuned_foreign_loaded(const char *component);
void mca_coll_modeltuned_foreign_free(mca_coll_modeltuned_module_t *m);

/* coll_modeltuned_view.c: the byte view of a bcast buffer. mca_coll_modeltuned_bcast_view fills
 * `v`; call mca_coll_modeltuned_bcast_view_done afterwards in every case (it unpacks and frees).
 * OMPI_ERR_NOT_SUPPORTED: more than INT_MAX bytes (every rank alike: fall back). */
typedef struct mca_coll_modeltuned_view_t {
    void *buf;
    mca_coll_modeltuned_count_t count;
    struct ompi_datatype_t *dtype;
    char *temp; /* packed copy of a non-contiguous layout */
} mca_coll_modeltuned_view_t;
int mca_coll_modeltuned_bcast_view(mca_coll_modeltuned_view_t *v, void *buf,
                                   mca_coll_modeltuned_count_t count, struct ompi_datatype_t *dtype,
                                   size_t bytes, bool root);
int mca_coll_modeltuned_bcast_view_done(mca_coll_modeltuned_view_t *v, void *buf,
                                        mca_coll_modeltuned_count_t count,
                                        struct ompi_datatype_t *dtype, bool root, int rc);

END_C_DECLS

#endif /* MCA_COLL_MODELTUNED_H */
