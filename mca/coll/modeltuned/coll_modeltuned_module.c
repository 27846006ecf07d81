/*
 * The module: comm_query (whether modeltuned takes a communicator, from what every rank published
 * at open), enable (what it falls back to) and disable.
 */
#include "ompi_config.h"

#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_modeltuned.h"
#include "ompi/mca/coll/base/coll_base_functions.h"
#include "ompi/mca/coll/base/coll_base_util.h"
#include MCA_COLL_MODELTUNED_RTE_H
#include "ompi/proc/proc.h"
#include MCA_COLL_MODELTUNED_PMIX_H

static void module_construct(mca_coll_modeltuned_module_t *m)
{
    /* Everything after the base up to the guards (none handed out) but the rows (none ready):
     * UNPLACED, no model, no fallback yet, nothing decided or run. */
    memset((char *) m + sizeof m->super, 0,
           offsetof(mca_coll_modeltuned_module_t, rows) - sizeof m->super);
    memset(m->previous, 0,
           offsetof(mca_coll_modeltuned_module_t, guards) -
               offsetof(mca_coll_modeltuned_module_t, previous));
    m->call_flags = mca_coll_modeltuned_component.call_flags;
    m->guard_enabled = mca_coll_modeltuned_component.guard;
    mca_coll_modeltuned_counters_add(m);
}

static void module_destruct(mca_coll_modeltuned_module_t *m)
{
    mca_coll_modeltuned_counters_remove(m);
    mt_comm_model_free(m->model);
    m->model = NULL;
    free(m->remembered);
    m->remembered = NULL;
    for (int op = 0; op < MT_OPS; ++op)
        if (NULL != m->previous[op].module)
            OBJ_RELEASE(m->previous[op].module);
}

/* Where collective `op`'s function is in a module, and its function and module in a
 * communicator's c_coll. */
static mca_coll_modeltuned_fn_t *module_fn(mca_coll_base_module_t *module, int op)
{
    return (mca_coll_modeltuned_fn_t *) ((char *) module +
                                         mca_coll_modeltuned_collectives[op]->module_fn);
}
static mca_coll_modeltuned_fn_t comm_fn(struct ompi_communicator_t *comm, int op)
{
    return *(mca_coll_modeltuned_fn_t *) ((char *) comm->c_coll +
                                          mca_coll_modeltuned_collectives[op]->comm_fn);
}
static mca_coll_base_module_t *comm_module(struct ompi_communicator_t *comm, int op)
{
    return *(mca_coll_base_module_t **) ((char *) comm->c_coll +
                                         mca_coll_modeltuned_collectives[op]->comm_module);
}

#if MCA_COLL_MODELTUNED_MODULE_INSTALLS
/* Puts function `fn` of `module` into the communicator's slot of `op`, as MCA_COLL_INSTALL_API. */
static void install_op(struct ompi_communicator_t *comm, int op, mca_coll_modeltuned_fn_t fn,
                       mca_coll_base_module_t *module)
{
    const mca_coll_modeltuned_collective_t *collective = mca_coll_modeltuned_collectives[op];
    *(mca_coll_modeltuned_fn_t *) ((char *) comm->c_coll + collective->comm_fn) = fn;
    *(mca_coll_base_module_t **) ((char *) comm->c_coll + collective->comm_module) = module;
}
#endif

/* Open MPI 6.0 installs no module's functions after enable: each module puts its own into the
 * communicator, and takes them out at disable (MCA_COLL_INSTALL_API). The ops modeltuned keeps
 * after enable go in; at disable (modules are disabled in the reverse order of enable) the
 * previous component's go back, for it to take out in turn. Up to 5.0, Open MPI copies the
 * module's non-NULL functions itself, and clears the slots at unselect. */
static void install_kept_ops(mca_coll_modeltuned_module_t *m, struct ompi_communicator_t *comm)
{
#if MCA_COLL_MODELTUNED_MODULE_INSTALLS
    for (int op = 0; op < MT_OPS; ++op)
        if (NULL != *module_fn(&m->super, op))
            install_op(comm, op, *module_fn(&m->super, op), &m->super);
#else
    (void) m, (void) comm;
#endif
}
static void uninstall_ops(mca_coll_modeltuned_module_t *m, struct ompi_communicator_t *comm)
{
#if MCA_COLL_MODELTUNED_MODULE_INSTALLS
    for (int op = 0; op < MT_OPS; ++op)
        if (comm_module(comm, op) == &m->super)
            install_op(comm, op, m->previous[op].fn, m->previous[op].module);
#else
    (void) m, (void) comm;
#endif
}

OBJ_CLASS_INSTANCE(mca_coll_modeltuned_module_t, mca_coll_base_module_t, module_construct,
                   module_destruct);

/* One line naming a rank of `comm` without this rank's table (`missing`: it has none, with the
 * reason it published) or with another one; said by the first rank holding this table. */
static void report_table_mismatch(struct ompi_communicator_t *comm, int other, bool missing,
                                  bool first_with_table)
{
    mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    if (!missing) {
        mca_coll_modeltuned_show_help(first_with_table, "table-differs-on-rank", other,
                                      comm->c_name, mca_coll_modeltuned_cid(comm), c->table_path);
        return;
    }
    /* what that rank published about its own input */
    char *problem = mca_coll_modeltuned_published_string(ompi_comm_peer_lookup(comm, other),
                                                         MCA_COLL_MODELTUNED_PROBLEM_KEY);
    mca_coll_modeltuned_show_help(first_with_table, "table-missing-on-rank", other, comm->c_name,
                                  mca_coll_modeltuned_cid(comm),
                                  NULL != problem
                                      ? problem
                                      : "it published no reason: modeltuned is not loaded there",
                                  c->table_path);
    free(problem);
}

/* The component whose module `previous` is on `comm` ("tuned", "han", ...): Open MPI lists the
 * modules it has enabled so far, in order, before it enables the next. */
static const char *component_of(struct ompi_communicator_t *comm, mca_coll_base_module_t *previous)
{
    mca_coll_base_avail_coll_t *item;
    if (NULL != comm->c_coll->module_list)
        OPAL_LIST_FOREACH (item, comm->c_coll->module_list, mca_coll_base_avail_coll_t)
            if (item->ac_module == previous)
                return item->ac_component_name;
    return "unknown";
}

static bool holds_op(mca_coll_modeltuned_module_t *m, int op)
{
    return NULL != *module_fn(&m->super, op);
}

/* Leaves op to the component below, and rank 0 says why at verbose 1. */
static void leave_op(mca_coll_modeltuned_module_t *m, struct ompi_communicator_t *comm, int op,
                     const char *to, const char *why)
{
    *module_fn(&m->super, op) = NULL;
    if (0 == ompi_comm_rank(comm))
        opal_output_verbose(1, mca_coll_modeltuned_component.output,
                            "coll:modeltuned:module_enable cid=%d size=%d: leaves %s to %s: %s",
                            mca_coll_modeltuned_cid(comm), ompi_comm_size(comm),
                            mca_coll_modeltuned_op_name(op), to, why);
}

/* An op the user told tuned how to run is theirs (coll_modeltuned_tuned.c). */
static void leave_told_ops(mca_coll_modeltuned_module_t *m, struct ompi_communicator_t *comm)
{
    for (int op = 0; op < MT_OPS; ++op)
        if (m->tuned_told & (1u << op)) {
            char why[MCA_COLL_MODELTUNED_REASON_MAX] = "the user told tuned what to run for it";
            (void) mca_coll_modeltuned_tuned_is_told(op, why, sizeof why);
            leave_op(m, comm, op, "tuned", why);
        }
}

/* The model weighs its picks against tuned's fixed rule, or against han's hierarchical algorithms
 * by the table's checks of them (setup.c tells the model which). Any other fallback runs what the
 * table has no check of, and modeltuned keeps it: never slower by choice. All ranks see the same
 * components (the same job-wide settings). */
static void leave_unmodelled_fallbacks(mca_coll_modeltuned_module_t *m,
                                       struct ompi_communicator_t *comm)
{
    for (int op = 0; op < MT_OPS; ++op) {
        const char *fallback = m->fallback[op];
        if (0 == strcmp(fallback, "tuned") || 0 == strcmp(fallback, "han") || !holds_op(m, op))
            continue;
        char why[256];
        snprintf(why, sizeof why,
                 "a call it handed back would run %s's %s, which the model does not predict and "
                 "no check measured",
                 fallback, mca_coll_modeltuned_op_name(op));
        leave_op(m, comm, op, fallback, why);
    }
}

/* Ops no check of the table lets the model take from Open MPI's default (or every op when the
 * model could not be built), then ops whose every call the model keeps at Open MPI's default on
 * this communicator (barrier and the block exchanges, model/select/selector.hpp): their calls go
 * straight to the previous component, which runs what the component would have. */
static void leave_default_ops(mca_coll_modeltuned_module_t *m, struct ompi_communicator_t *comm,
                              bool ready)
{
    int cannot_leave = ~0, keeps_default = 0;
    if (ready)
        (void) mt_comm_model_ops_left(m->model, mca_coll_modeltuned_component.objective,
                                      &cannot_leave, &keeps_default);
    for (int op = 0; op < MT_OPS; ++op) {
        if (!holds_op(m, op))
            continue;
        const bool han = ready && 0 != (mt_comm_model_han_default_ops(m->model) & (1 << op));
        if (cannot_leave & (1 << op))
            leave_op(m, comm, op, m->fallback[op],
                     !ready ? "the model could not be built (the setup line says why)"
                     : han  ? "a call it handed back would run han's hierarchical algorithm (a "
                              "node holds two or more of its ranks), and no check of the table "
                              "measured han on this communicator's shape and size, so the model "
                              "would keep it for every call"
                            : "no check of the table covers this communicator's shape and size, "
                              "so the model would keep Open MPI's default for every call");
        else if (keeps_default & (1 << op))
            leave_op(m, comm, op, m->fallback[op],
                     "the model keeps Open MPI's default for every call of it on this "
                     "communicator (docs/model.md, \"Ops the model never takes\")");
    }
}

static int module_enable(mca_coll_base_module_t *module, struct ompi_communicator_t *comm)
{
    mca_coll_modeltuned_module_t *m = (mca_coll_modeltuned_module_t *) module;

    /* What the lower-priority components installed is our fallback. */
    for (int op = 0; op < MT_OPS; ++op)
        if (NULL == comm_module(comm, op)) {
            opal_output_verbose(1, mca_coll_modeltuned_component.output,
                                "coll:modeltuned:module_enable cid=%d name=%s: no component below "
                                "runs %s to fall back to; not enabling",
                                mca_coll_modeltuned_cid(comm), comm->c_name,
                                mca_coll_modeltuned_op_name(op));
            return OMPI_ERROR;
        }
    for (int op = 0; op < MT_OPS; ++op) {
        m->previous[op].fn = comm_fn(comm, op);
        m->previous[op].module = comm_module(comm, op);
        OBJ_RETAIN(m->previous[op].module);
    }

    /* The placement needs no communication (setup.c), so the model is built now, and an op it can
     * never take from Open MPI's default (or every op, when the model cannot be built) is left out:
     * Open MPI installs the functions left non-NULL after enable, so that op's calls go straight
     * to the previous component and modeltuned costs them nothing. Every rank reads the same
     * table and placement: all leave out the same ops. */
    for (int op = 0; op < MT_OPS; ++op)
        m->fallback[op] = component_of(comm, m->previous[op].module);
    const bool ready = OMPI_SUCCESS == mca_coll_modeltuned_setup(m, comm);
    leave_told_ops(m, comm);
    leave_unmodelled_fallbacks(m, comm);
    leave_default_ops(m, comm, ready);
    install_kept_ops(m, comm);
    return OMPI_SUCCESS;
}

/* Called once per slot we hold (up to 5.0) or once (6.0): the first call does the work. Up to 5.0
 * nothing to restore, since unselect clears the slots itself; the fallback modules are released
 * with the module. No call reaches a disabled module (Open MPI takes its functions out first, and
 * the communicator is being freed), so its rows are left as they are. */
static int module_disable(mca_coll_base_module_t *module, struct ompi_communicator_t *comm)
{
    mca_coll_modeltuned_module_t *m = (mca_coll_modeltuned_module_t *) module;
    uninstall_ops(m, comm);
    if (MCA_COLL_MODELTUNED_DISABLED == m->state)
        return OMPI_SUCCESS;
    m->state = MCA_COLL_MODELTUNED_DISABLED;
    mca_coll_modeltuned_foreign_free(m);
    mt_comm_model_free(m->model);
    m->model = NULL;
    return OMPI_SUCCESS;
}

/* Why ranks of `comm` cannot all decide alike (another table or none, other algorithm lists, an
 * oversubscribed node), from what they published at open; NULL when they can. Installation
 * problems are reported once per process, by one rank. */
static const char *published_mismatch(mca_coll_modeltuned_component_t *c,
                                      struct ompi_communicator_t *comm, char *reason,
                                      size_t reason_size)
{
    mca_coll_modeltuned_scan_t scan;
    mca_coll_modeltuned_peers_scan(comm, &scan);
    const int other = scan.other, oversubscribed = scan.oversubscribed,
              other_lists = scan.other_lists;
    if (other >= 0) {
        if (mca_coll_modeltuned_once(MCA_COLL_MODELTUNED_ONCE_TABLE_MISMATCH))
            report_table_mismatch(comm, other, scan.missing, scan.first_with_table);
        snprintf(reason, reason_size, "rank %d of this communicator %s", other,
                 scan.missing ? "has no usable calibration table"
                              : "uses another calibration table");
        return reason;
    }
    if (other_lists >= 0) { /* parameters set differently per rank */
        if (mca_coll_modeltuned_once(MCA_COLL_MODELTUNED_ONCE_LISTS_MISMATCH))
            mca_coll_modeltuned_show_help(0 == ompi_comm_rank(comm), "algorithm-lists-differ",
                                          other_lists, comm->c_name, mca_coll_modeltuned_cid(comm));
        return "ranks started with different algorithm lists or guard settings";
    }
    if (oversubscribed >= 0) { /* not an installation problem: verbose only */
        snprintf(reason, reason_size,
                 "rank %d of this communicator runs on an oversubscribed node (more "
                 "ranks than cores), where the model does not hold; set "
                 "coll_modeltuned_oversubscribed 1 to "
                 "decide anyway",
                 oversubscribed);
        return reason;
    }
    return NULL;
}

/* Each op's algorithm list as last parsed: a list keeps its text until an MPI_T write, so a new
 * communicator compares the text instead of parsing it again. Longer lists are parsed each time. */
static struct {
    pthread_mutex_t lock;
    char text[MT_OPS][128];
    uint32_t mask[MT_OPS];
    bool valid[MT_OPS];
} parsed_lists = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* The lists' masks as last parsed, per op that still has that text (bit op of the result). */
static unsigned parsed_before(char *const *lists, uint32_t allowed[MT_OPS])
{
    unsigned known = 0;
    pthread_mutex_lock(&parsed_lists.lock);
    for (int op = 0; op < MT_OPS; ++op) {
        const char *text = NULL != lists[op] ? lists[op] : "";
        if (parsed_lists.valid[op] && text[0] == parsed_lists.text[op][0] &&
            ('\0' == text[0] || 0 == strcmp(parsed_lists.text[op], text))) {
            allowed[op] = parsed_lists.mask[op];
            known |= 1u << op;
        }
    }
    pthread_mutex_unlock(&parsed_lists.lock);
    return known;
}

static void parsed_now(int op, const char *list, uint32_t mask)
{
    const char *text = NULL != list ? list : "";
    if (strlen(text) >= sizeof parsed_lists.text[op])
        return;
    pthread_mutex_lock(&parsed_lists.lock);
    strcpy(parsed_lists.text[op], text);
    parsed_lists.mask[op] = mask;
    parsed_lists.valid[op] = true;
    pthread_mutex_unlock(&parsed_lists.lock);
}

/* The algorithms `comm` may use, per op, from the lists as they are now: only an MPI_T write makes
 * them fail here (they were checked at MPI_Init). Such writes must be the same on every rank (the
 * variables' scope is "all"): communicators created afterwards follow them without another
 * agreement. NULL, or why modeltuned declines. */
static const char *allowed_now(mca_coll_modeltuned_component_t *c, struct ompi_communicator_t *comm,
                               uint32_t allowed[MT_OPS])
{
    char *const *lists = c->algorithm_lists;
    char err[512];
    const unsigned known = parsed_before(lists, allowed);
    for (int op = 0; op < MT_OPS; ++op) {
        if (!(known & (1u << op))) {
            if (0 != mt_parse_algorithms(op, lists[op], &allowed[op], err, sizeof err)) {
                mca_coll_modeltuned_show_help(0 == ompi_comm_rank(comm),
                                              "bad-algorithm-list-written",
                                              mca_coll_modeltuned_op_name(op), lists[op],
                                              comm->c_name, mca_coll_modeltuned_cid(comm), err);
                return "an algorithm list written at run time is invalid";
            }
            parsed_now(op, lists[op], allowed[op]);
        }
        allowed[op] &= c->runnable[op]; /* what Open MPI's library cannot run is never allowed */
    }
    return NULL;
}

/* Whether the user told tuned what to run for every collective modeltuned decides. */
static bool all_told(char told[MT_OPS][MCA_COLL_MODELTUNED_REASON_MAX])
{
    for (int op = 0; op < MT_OPS; ++op)
        if ('\0' == told[op][0])
            return false;
    return true;
}

mca_coll_base_module_t *mca_coll_modeltuned_comm_query(struct ompi_communicator_t *comm,
                                                       int *priority)
{
    mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    static char reason[512];
    uint32_t allowed[MT_OPS] = {0};
    /* Tuned's settings were compared at start-up (start_lists); what is read here are their values
     * now, which MPI_T writes (scope "all", the same on every rank) may have changed since. */
    char told[MT_OPS][MCA_COLL_MODELTUNED_REASON_MAX];
    mca_coll_modeltuned_tuned_told(told);

    *priority = c->priority;
    const char *why = c->priority < 0            ? "priority is negative"
                      : OMPI_COMM_IS_INTER(comm) ? "intercommunicator"
                      : ompi_comm_size(comm) < 2 ? "a single rank"
                      : NULL == c->table         ? (NULL != c->disabled_reason ? c->disabled_reason
                                                                               : "no calibration table")
                                         : published_mismatch(c, comm, reason, sizeof reason);
    if (NULL == why)
        why = allowed_now(c, comm, allowed);
    if (NULL == why && all_told(told)) {
        char names[128];
        mca_coll_modeltuned_collective_names(names, sizeof names, " and ");
        snprintf(reason, sizeof reason, "tuned runs what the user told it for %s: %s", names,
                 told[0]);
        why = reason;
    }
    if (NULL != why) { /* the same reason on every rank: one says it */
        if (0 == ompi_comm_rank(comm))
            opal_output_verbose(1, c->output,
                                "coll:modeltuned:comm_query cid=%d name=%s: declining: %s",
                                mca_coll_modeltuned_cid(comm), comm->c_name, why);
        return NULL;
    }

    mca_coll_modeltuned_module_t *m = OBJ_NEW(mca_coll_modeltuned_module_t);
    if (NULL == m)
        return NULL;
    memcpy(m->allowed, allowed, sizeof allowed);
    for (int op = 0; op < MT_OPS; ++op)
        if ('\0' != told[op][0])
            m->tuned_told |= (uint8_t) (1u << op);
    const double cost_ns = c->other_cost_us * 1e3; /* 0, negative or NaN: from the first pick */
    m->foreign_cost_ns = comm == &ompi_mpi_comm_world.comm || !(cost_ns > 0) ? 0
                         : cost_ns >= 1e18                                   ? UINT64_MAX
                                                                             : (uint64_t) cost_ns;
    m->super.coll_module_enable = module_enable;
    m->super.coll_module_disable = module_disable;
    for (int op = 0; op < MT_OPS; ++op)
        *module_fn(&m->super, op) = mca_coll_modeltuned_collectives[op]->entry;
    return &m->super;
}
