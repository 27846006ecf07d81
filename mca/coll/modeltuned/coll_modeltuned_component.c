/*
 * The component: its MCA parameters (the table's, the counters' and the guard's registered by their
 * files), open and close; at open (inside MPI_Init) the table loaded (coll_modeltuned_table.c) and
 * what every process publishes in the modex.
 */
#include "ompi_config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_modeltuned.h"
#include MCA_COLL_MODELTUNED_RTE_H
#include "ompi/runtime/mpiruntime.h"
#include MCA_COLL_MODELTUNED_PMIX_H

const char *mca_coll_modeltuned_component_version_string =
    "Open MPI modeltuned collective MCA component version " PACKAGE_VERSION;

/* Per operation, from the model's registry: the parameter listing the algorithms modeltuned may
 * choose ("linear (1), chain (2), ..." in its help), then the MPI_T counter of the calls it ran
 * (coll_modeltuned_counters.c). Also sizes the counters and the dispatch table: the largest
 * algorithm number + 1. */
static void register_op_parameters(mca_coll_modeltuned_component_t *c, int op)
{
    const mca_base_component_t *v = &c->super.collm_version;
    const char *op_name = mca_coll_modeltuned_op_name(op);
    char name[32], description[1024], names[512] = "";
    char **list = &c->algorithm_lists[op];
    mt_algorithm_info info;
    size_t used = 0;
    for (int i = 0; 0 == mt_algorithm_at(op, i, &info); ++i) {
        if (info.id >= c->slots && info.id < MCA_COLL_MODELTUNED_MAX_SLOTS)
            c->slots = info.id + 1;
        if (used < sizeof names)
            used += snprintf(names + used, sizeof names - used, "%s%s (%d)", i ? ", " : "",
                             info.name, info.id);
    }
    *list = "";
    snprintf(name, sizeof name, "%s_algorithms", op_name);
    snprintf(description, sizeof description,
             "%c%s algorithms modeltuned may choose, by name or "
             "tuned's number, comma-separated: %s; empty or \"all\" = every one.%s Writable at run "
             "time (MPI_T): communicators created afterwards follow it",
             op_name[0] - 'a' + 'A', op_name + 1, names,
             mca_coll_modeltuned_collectives[op]->kinds == 1
                 ? ""
                 : " Non-commutative operations only ever get the order-preserving ones.");
    (void) mca_base_component_var_register(v, name, description, MCA_BASE_VAR_TYPE_STRING, NULL, 0,
                                           MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_5,
                                           MCA_BASE_VAR_SCOPE_ALL, list);

    mca_coll_modeltuned_counters_register_calls(c, op);
}

/* Completion is what an application waits for (the slowest rank); OSU's latency column is the
 * rank mean, under which a reduce's leaves count as done once they have sent. */
static int register_objective(mca_coll_modeltuned_component_t *c)
{
    static const mca_base_var_enum_value_t objectives[] = {{MT_OBJECTIVE_COMPLETION, "completion"},
                                                           {MT_OBJECTIVE_RANK_MEAN, "rank_mean"},
                                                           {0, NULL}};
    mca_base_var_enum_t *objective_enum = NULL;
    c->objective = MT_OBJECTIVE_COMPLETION;
    const int rc = mca_base_var_enum_create("coll_modeltuned_objective", objectives,
                                            &objective_enum);
    if (OPAL_SUCCESS != rc)
        return rc; /* out of memory: the component is not registered */
    /* An unknown value fails the registration and leaves the default. Open MPI names it too, but
     * through the show_help relay that loses messages (see mca_coll_modeltuned_show_help), so
     * load_table says it again on rank 0's stderr. */
    c->objective_rejected =
        0 > mca_base_component_var_register(
                &c->super.collm_version, "objective",
                "What the model minimises: completion (from the first rank's start to the last "
                "rank's end, "
                "what modeltuned-bench measures) or rank_mean (each rank's own time averaged over "
                "ranks, "
                "what OSU's benchmarks report as latency). Must be the same on every rank",
                MCA_BASE_VAR_TYPE_INT, objective_enum, 0, 0, OPAL_INFO_LVL_4,
                MCA_BASE_VAR_SCOPE_READONLY, &c->objective);
    OBJ_RELEASE(objective_enum);
    return OMPI_SUCCESS;
}

/* On the 2-core VM at np 2 (docs/reliability.md, "Another component's communicator"), a dup with
 * coll/sm on top, its first call and its free took about 460 us more than a dup's under plain
 * Open MPI 4.1. */
#define OTHER_COST_US_DEFAULT 500.0
static void register_other_cost(mca_coll_modeltuned_component_t *c)
{
    c->other_cost_us = OTHER_COST_US_DEFAULT;
    (void) mca_base_component_var_register(
        &c->super.collm_version, "other_cost_us",
        "What modeltuned takes the private communicator of another component (sm, adapt, xhc, "
        "acoll) to cost, in microseconds: a dup of the user's communicator with that component on "
        "top, made for the first calls that pick it. A communicator's picks of the component run "
        "Open MPI's default until the model predicts they would have saved this much, so that a "
        "communicator used for a few calls never pays for the dup. 0 (or less): from the first "
        "pick. Writable at run time (MPI_T): communicators created afterwards follow it. Must be "
        "the same on every rank",
        MCA_BASE_VAR_TYPE_DOUBLE, NULL, 0, MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_5,
        MCA_BASE_VAR_SCOPE_ALL, &c->other_cost_us);
}

static int modeltuned_register(void)
{
    mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    const mca_base_component_t *v = &c->super.collm_version;

    /* The algorithms' listing below is the line's (the C API lists by it). */
    (void) mt_set_ompi_version(MCA_COLL_MODELTUNED_OMPI_SERIES);
    /* Above tuned (30) so that, where it is loaded and has a table, it owns what it decides.
     * Writable at run time (MPI_T): communicators created after a change follow it. */
    c->priority = 40;
    (void) mca_base_component_var_register(
        v, "priority",
        "Priority of the modeltuned coll component (tuned's is 30; a negative value disables "
        "modeltuned for communicators created afterwards)",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_6,
        MCA_BASE_VAR_SCOPE_ALL, &c->priority);

    c->verbose = 0;
    (void) mca_base_component_var_register(
        v, "verbose",
        "Verbosity of modeltuned: 1 = why it steps aside, 10 = each decision (comm rank 0), "
        "20 = every call on every rank",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_LOCAL, &c->verbose);

    c->calibration_file = NULL;
    (void) mca_base_component_var_register(
        v, "calibration_file",
        "Calibration table (JSON, see docs/calibration-format.md). When empty, the first file "
        "found of $XDG_CONFIG_HOME/modeltuned/calibration.json (default "
        "~/.config/modeltuned/calibration.json) and " MODELTUNED_SYSCONFDIR
        "/modeltuned/calibration.json is used; with none, modeltuned steps aside",
        MCA_BASE_VAR_TYPE_STRING, NULL, 0, 0, OPAL_INFO_LVL_3, MCA_BASE_VAR_SCOPE_READONLY,
        &c->calibration_file);

    mca_coll_modeltuned_table_register(c);

    c->slots = 1;
    for (int op = 0; op < MT_OPS; ++op)
        register_op_parameters(c, op);

    c->decision_file = NULL;
    (void) mca_base_component_var_register(
        v, "decision_file",
        "Append every decision (communicator, size class, root, pick, every candidate's prediction "
        "and Open MPI's default) as a JSON line to this file; \"%r\" in the name is replaced by "
        "the rank in MPI_COMM_WORLD and \"%p\" by the process id, and then every rank writes its "
        "own file, otherwise rank 0 of each communicator writes. Read it with: modeltuned explain "
        "--decisions FILE",
        MCA_BASE_VAR_TYPE_STRING, NULL, 0, 0, OPAL_INFO_LVL_4, MCA_BASE_VAR_SCOPE_READONLY,
        &c->decision_file);

    const int rc = register_objective(c);
    if (OMPI_SUCCESS != rc)
        return rc;

    /* Measured on the 2-core development VM with 4 ranks: the picks ran up to 6x slower than Open
     * MPI's, since every pipeline stage or exchange round waits for a rank to be scheduled. */
    c->oversubscribed = false;
    (void) mca_base_component_var_register(
        v, "oversubscribed",
        "Decide on nodes Open MPI runs oversubscribed (more ranks than cores, mpi_oversubscribe) "
        "too. By default modeltuned steps aside on every communicator with a rank on such a node: "
        "its model assumes a core per rank, and time-shared ranks make pipelines and exchange "
        "rounds far slower than it predicts",
        MCA_BASE_VAR_TYPE_BOOL, NULL, 0, 0, OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_READONLY,
        &c->oversubscribed);

    register_other_cost(c);
    mca_coll_modeltuned_guard_register(c);
    mca_coll_modeltuned_counters_register_guard(c);
    return OMPI_SUCCESS;
}

/* What prepare reads: the table, then, with one, where this process sits (a process without one
 * is never placed: every communicator with it is declined first). On a thread of its own: glibc
 * gives that thread another malloc arena, so parsing the table, whose allocations are mostly freed
 * at once, and the node's topology leave the application's heap as it was (docs/validation.md,
 * "What being loaded costs"). */
static void *read_inputs(void *component)
{
    mca_coll_modeltuned_component_t *c = component;
    if (NULL == c->disabled_reason)
        c->disabled_reason = mca_coll_modeltuned_load_table(c);
    if (NULL != c->table)
        c->place = mca_coll_modeltuned_place_here(&c->node);
    return NULL;
}

/* What the ranks of a communicator must share to decide alike, hashed: each collective's algorithm
 * list at start and whether tuned was told what to run for it, the objective, the guard's
 * settings that decide when its windows come and what they conclude, and when another component's
 * private communicator is made. */
static uint64_t shared_settings(const mca_coll_modeltuned_component_t *c)
{
    char text[1024];
    size_t used = (size_t) snprintf(text, sizeof text,
                                    "objective=%d guard=%d %d %.17g %.17g other_cost_us=%.17g",
                                    c->objective, (int) c->guard, c->guard_samples, c->guard_budget,
                                    c->guard_tolerance, c->other_cost_us);
    for (int op = 0; op < MT_OPS && used < sizeof text; ++op) {
        uint32_t list = 0;
        (void) mt_parse_algorithms(op, c->algorithm_lists[op], &list, NULL,
                                   0); /* valid: checked by load_table */
        used += (size_t) snprintf(text + used, sizeof text - used, " %s=%x told=%d",
                                  mca_coll_modeltuned_op_name(op), list & c->runnable[op],
                                  (int) mca_coll_modeltuned_tuned_is_told(op, NULL, 0));
    }
    return mca_coll_modeltuned_hash_string(text);
}

/* Inside MPI_Init and before its modex exchange: load the table and publish its checksum, the
 * oversubscription flag, the settings the ranks must share and where this process sits, so that
 * comm_query and setup see every rank's without communicating. */
static void prepare(mca_coll_modeltuned_component_t *c)
{
    int rc;
    char gap[512], list[256];
    /* Whether modeltuned takes part or not: the list is the user's, and the job's at risk. */
    if (0 == OMPI_PROC_MY_NAME->vpid &&
        mca_coll_modeltuned_coll_list_gap(gap, sizeof gap, list, sizeof list))
        mca_coll_modeltuned_show_help(true, "coll-list-leaves-out", list, gap);
    pthread_t reader;
    if (0 == pthread_create(&reader, NULL, read_inputs, c))
        (void) pthread_join(reader, NULL);
    else
        (void) read_inputs(c);
    uint64_t values[MCA_COLL_MODELTUNED_PUBLISHED_KEYS] = {0};
    values[MCA_COLL_MODELTUNED_PUBLISHED_PLACE] = c->place;
    values[MCA_COLL_MODELTUNED_PUBLISHED_TABLE] = NULL == c->table ? 0
                                                                   : mt_table_checksum(c->table);
    values[MCA_COLL_MODELTUNED_PUBLISHED_OVERSUBSCRIBED] =
        !c->oversubscribed && mca_coll_modeltuned_node_oversubscribed();
    c->start_settings = values[MCA_COLL_MODELTUNED_PUBLISHED_SETTINGS] = NULL != c->table
                                                                             ? shared_settings(c)
                                                                             : 0;
    if (NULL != c->problem) /* named by the rank that reports this one as without a table */
        OPAL_MODEX_SEND_STRING(rc, MCA_COLL_MODELTUNED_MODEX_GLOBAL,
                               MCA_COLL_MODELTUNED_PROBLEM_KEY, c->problem, strlen(c->problem) + 1);
    if (OPAL_SUCCESS != (rc = mca_coll_modeltuned_publish(values)))
        opal_output_verbose(1, c->output,
                            "coll:modeltuned:open: cannot publish in the modex (%d); "
                            "modeltuned will step aside",
                            rc);
}

/* A table measured on another kind of node may not hold here: one warning per job at verbose 0
 * (world rank 0), and per node at verbose 1 (the table is still used: a shared table is a
 * legitimate choice). The node's objects were counted when this process was placed. */
int mca_coll_modeltuned_init_query(bool enable_progress_threads, bool enable_mpi_threads)
{
    mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    const int *n = c->node.objects;
    char msg[512];
    const bool here = 0 == OMPI_PROC_MY_NAME->vpid ||
                      (c->verbose >= 1 && 0 == ompi_process_info.my_local_rank);
    if (NULL == c->table || !here || !c->node.known)
        return OMPI_SUCCESS;
    const int rc = mt_table_topology_mismatch(c->table, n[0], n[1], n[2], n[3], n[4], msg,
                                              sizeof msg);
    if (1 == rc || (0 != rc && c->verbose >= 1)) /* -1: the table records no topology */
        mca_coll_modeltuned_show_help(true, "table-from-other-topology", c->table_path, msg);
    return OMPI_SUCCESS;
}

/* ompi_info opens components too, outside MPI_Init: there only the dispatch table is built. */
static int modeltuned_open(void)
{
    mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    c->output = opal_output_open(NULL);
    opal_output_set_verbosity(c->output, c->verbose);
    c->call_flags = c->verbose >= 20 ? MCA_COLL_MODELTUNED_TRACE_CALLS
                                     : 0; /* verbose is not writable at run time */
    if (c->guard_test_delay_us > 0 && ompi_mpi_state >= OMPI_MPI_STATE_INIT_STARTED &&
        (c->guard_test_delay_rank < 0 ||
         (uint32_t) c->guard_test_delay_rank == OMPI_PROC_MY_NAME->vpid))
        c->call_flags |= MCA_COLL_MODELTUNED_DELAY_PICKS;
    c->table = NULL;
    c->table_path = NULL;
    c->problem = NULL;
    c->disabled_reason = NULL;
    mca_coll_modeltuned_help_dirs_add();
    /* The default the model weighs its picks against is the one of the line it runs under (the
     * runtime version check in load_table makes that the compiled one). */
    (void) mt_set_ompi_version(MCA_COLL_MODELTUNED_OMPI_SERIES);
    if (OMPI_SUCCESS != mca_coll_modeltuned_dispatch_open())
        c->disabled_reason = "out of memory";
    if (ompi_mpi_state >= OMPI_MPI_STATE_INIT_STARTED)
        prepare(c);
    return OMPI_SUCCESS;
}

static int modeltuned_close(void)
{
    mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    mca_coll_modeltuned_peers_forget();
    mt_table_free(c->table);
    free(c->table_path);
    free(c->problem);
    c->problem = NULL;
    for (int op = 0; op < MT_OPS; ++op) {
        free(c->algorithms[op]);
        c->algorithms[op] = NULL;
    }
    opal_output_close(c->output);
    mca_coll_modeltuned_counters_close(c);
    return OMPI_SUCCESS;
}

mca_coll_modeltuned_component_t mca_coll_modeltuned_component = {
    .super =
        {
            .collm_version =
                {
                    MCA_COLL_MODELTUNED_BASE_VERSION,
                    .mca_component_name = "modeltuned",
                    MCA_BASE_MAKE_VERSION(component, 0, 1, 0),
                    .mca_open_component = modeltuned_open,
                    .mca_close_component = modeltuned_close,
                    .mca_register_component_params = modeltuned_register,
                },
            .collm_data = {MCA_BASE_METADATA_PARAM_CHECKPOINT},
            .collm_init_query = mca_coll_modeltuned_init_query,
            .collm_comm_query = mca_coll_modeltuned_comm_query,
        },
};
