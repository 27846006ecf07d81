/*
 * The component: its MCA parameters, open and close; at open (inside MPI_Init) the version check,
 * the calibration table's search and loading, and what every process publishes in the modex.
 */
#include "ompi_config.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll_modeltuned.h"
#include MCA_COLL_MODELTUNED_RTE_H
#include "ompi/runtime/mpiruntime.h"
#include "opal/util/printf.h"
#include "opal/mca/base/mca_base_pvar.h"
#include MCA_COLL_MODELTUNED_PMIX_H
#include "opal/util/show_help.h"

#define HELP_FILE "help-coll-modeltuned.txt"

const char *mca_coll_modeltuned_component_version_string =
    "Open MPI modeltuned collective MCA component version " PACKAGE_VERSION;

#define MCA_COLL_MODELTUNED_TABLE_OF(name, NAME, shape) \
    [MT_OP_##NAME] = &mca_coll_modeltuned_collective_##name,
const mca_coll_modeltuned_collective_t *const mca_coll_modeltuned_collectives[MT_OPS] = {
    MCA_COLL_MODELTUNED_COLLECTIVES(MCA_COLL_MODELTUNED_TABLE_OF)};
#undef MCA_COLL_MODELTUNED_TABLE_OF
/* The list follows the model's order: the call kinds of each collective then follow the last's. */
#define MCA_COLL_MODELTUNED_IN_ORDER(name, NAME, shape)                          \
    _Static_assert((int) MCA_COLL_MODELTUNED_ORDER_##NAME == (int) MT_OP_##NAME, \
                   #name " is listed where the model numbers it");
MCA_COLL_MODELTUNED_COLLECTIVES(MCA_COLL_MODELTUNED_IN_ORDER)
#undef MCA_COLL_MODELTUNED_IN_ORDER
_Static_assert((int) MCA_COLL_MODELTUNED_LISTED == (int) MT_OPS,
               "every family of the model is listed");

void mca_coll_modeltuned_collective_names(char *out, size_t size, const char *last_separator)
{
    size_t used = 0;
    out[0] = '\0';
    for (int op = 0; op < MT_OPS && used < size; ++op)
        used += (size_t) snprintf(out + used, size - used, "%s%s",
                                  0 == op            ? ""
                                  : op + 1 == MT_OPS ? last_separator
                                                     : ", ",
                                  mca_coll_modeltuned_op_name(op));
}

/* Guards the component's counters and its list of live modules (communicators are created and
 * freed on any thread). */
static pthread_mutex_t counters_lock = PTHREAD_MUTEX_INITIALIZER;

void mca_coll_modeltuned_counters_add(mca_coll_modeltuned_module_t *m)
{
    mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    pthread_mutex_lock(&counters_lock);
    if (c->live_count == c->live_capacity) {
        const size_t capacity = c->live_capacity ? 2 * c->live_capacity : 16;
        void *grown = realloc(c->live, capacity * sizeof *c->live);
        if (NULL != grown) {
            c->live = grown;
            c->live_capacity = capacity;
        }
    }
    if (c->live_count < c->live_capacity) /* else out of memory: its calls go uncounted */
        c->live[c->live_count++] = m;
    pthread_mutex_unlock(&counters_lock);
}

void mca_coll_modeltuned_counters_remove(mca_coll_modeltuned_module_t *m)
{
    mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    pthread_mutex_lock(&counters_lock);
    for (size_t i = 0; i < c->live_count; ++i) {
        if (c->live[i] != m)
            continue;
        for (int kind = 0; kind < MCA_COLL_MODELTUNED_KINDS; ++kind)
            for (int a = 0; a < MCA_COLL_MODELTUNED_MAX_SLOTS; ++a)
                c->calls[mca_coll_modeltuned_kind_op(kind)][a] += m->rows[kind].calls[a];
        c->live[i] = c->live[--c->live_count];
        break;
    }
    pthread_mutex_unlock(&counters_lock);
}

/* The counters' context is their operation (MT_OP_*); sized after registration (below). The calls
 * of modules gone plus those of every live module's rows of that op. */
static int counters_get(const struct mca_base_pvar_t *pvar, void *value, void *obj)
{
    const mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    const int op = (int) (intptr_t) pvar->ctx;
    unsigned long long *out = value;
    pthread_mutex_lock(&counters_lock);
    memcpy(out, c->calls[op], sizeof(unsigned long long) * c->slots);
    for (size_t i = 0; i < c->live_count; ++i)
        for (int kind = 0; kind < MCA_COLL_MODELTUNED_KINDS; ++kind)
            if (mca_coll_modeltuned_kind_op(kind) == op)
                for (int a = 0; a < c->slots; ++a)
                    out[a] += c->live[i]->rows[kind].calls[a];
    pthread_mutex_unlock(&counters_lock);
    return OMPI_SUCCESS;
}

static int counters_notify(struct mca_base_pvar_t *pvar, mca_base_pvar_event_t event, void *obj,
                           int *count)
{
    if (MCA_BASE_PVAR_HANDLE_BIND == event)
        *count = mca_coll_modeltuned_component.slots;
    return OMPI_SUCCESS;
}

void mca_coll_modeltuned_guard_counted(int op, bool takeback)
{
    mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    pthread_mutex_lock(&counters_lock);
    ++c->guard_windows[op];
    if (takeback)
        ++c->takebacks[op];
    pthread_mutex_unlock(&counters_lock);
}

/* The guard's counters, one per collective in the list's order; the context is the array. */
static int guard_counters_get(const struct mca_base_pvar_t *pvar, void *value, void *obj)
{
    pthread_mutex_lock(&counters_lock);
    memcpy(value, pvar->ctx, sizeof(unsigned long long) * MT_OPS);
    pthread_mutex_unlock(&counters_lock);
    return OMPI_SUCCESS;
}

static int guard_counters_notify(struct mca_base_pvar_t *pvar, mca_base_pvar_event_t event,
                                 void *obj, int *count)
{
    if (MCA_BASE_PVAR_HANDLE_BIND == event)
        *count = MT_OPS;
    return OMPI_SUCCESS;
}

/* Per operation, from the model's registry: the parameter listing the algorithms modeltuned may
 * choose ("linear (1), chain (2), ..." in its help) and the MPI_T counter of the calls it ran.
 * Also sizes the counters and the dispatch table: the largest algorithm number + 1. */
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

    snprintf(name, sizeof name, "%s_calls", op_name);
    snprintf(description, sizeof description,
             "MPI_%c%s calls modeltuned ran, per tuned algorithm "
             "number (index 0: Open MPI's default, handed to the previous component)",
             op_name[0] - 'a' + 'A', op_name + 1);
    (void) mca_base_component_pvar_register(v, name, description, OPAL_INFO_LVL_4,
                                            MPI_T_PVAR_CLASS_COUNTER,
                                            MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG, NULL,
                                            MPI_T_BIND_NO_OBJECT,
                                            MCA_BASE_PVAR_FLAG_READONLY |
                                                MCA_BASE_PVAR_FLAG_CONTINUOUS,
                                            counters_get, NULL, counters_notify,
                                            (void *) (intptr_t) op);
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

/* One of the guard's MPI_T counters, one value per collective: `what` names them at its %s. */
static void register_guard_counter(const mca_base_component_t *v, const char *name,
                                   const char *what, unsigned long long *counts)
{
    char names[256], description[512];
    mca_coll_modeltuned_collective_names(names, sizeof names, ", ");
    snprintf(description, sizeof description, what, names);
    (void) mca_base_component_pvar_register(v, name, description, OPAL_INFO_LVL_4,
                                            MPI_T_PVAR_CLASS_COUNTER,
                                            MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG, NULL,
                                            MPI_T_BIND_NO_OBJECT,
                                            MCA_BASE_PVAR_FLAG_READONLY |
                                                MCA_BASE_PVAR_FLAG_CONTINUOUS,
                                            guard_counters_get, NULL, guard_counters_notify,
                                            counts);
}

/* The guard (coll_modeltuned_guard.c, docs/model.md "The guard") and its counters. */
static void register_guard(mca_coll_modeltuned_component_t *c)
{
    const mca_base_component_t *v = &c->super.collm_version;
    c->guard = true;
    (void) mca_base_component_var_register(
        v, "guard",
        "Check the picks that leave Open MPI's default against it during the run: now and then, "
        "at the same call on every rank, run a few calls of each and take the pick back for good "
        "when it is the slower. 0: never; every call of a size class then runs the same algorithm "
        "(for floating-point sums that must be reproducible from run to run). Must be the same on "
        "every rank",
        MCA_BASE_VAR_TYPE_BOOL, NULL, 0, 0, OPAL_INFO_LVL_4, MCA_BASE_VAR_SCOPE_ALL, &c->guard);
    c->guard_samples = 4;
    (void) mca_base_component_var_register(
        v, "guard_samples",
        "Calls of the pick and as many of Open MPI's default that one comparison window times "
        "(an even number, 2-16; the window's verdict compares their medians; the window runs two "
        "blocks of each arm, each with one more call, untimed). Must be the same on every rank",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_6, MCA_BASE_VAR_SCOPE_ALL,
        &c->guard_samples);
    c->guard_budget = 0.01;
    (void) mca_base_component_var_register(
        v, "guard_budget",
        "Share of a watched pick's time that its comparisons may cost once it has won its first "
        "window, as the model predicts it (0-1, not 0): after each window the pick wins, the next "
        "comes twice as far on, and at least as far as that takes. Must be the same on every rank",
        MCA_BASE_VAR_TYPE_DOUBLE, NULL, 0, 0, OPAL_INFO_LVL_6, MCA_BASE_VAR_SCOPE_ALL,
        &c->guard_budget);
    c->guard_tolerance = 0.10;
    (void) mca_base_component_var_register(
        v, "guard_tolerance",
        "A window counts against the pick when its calls took more than (1 + this) times the "
        "default's (sums over ranks of each rank's median); two such windows in a row take it "
        "back. Must be the same on every rank",
        MCA_BASE_VAR_TYPE_DOUBLE, NULL, 0, 0, OPAL_INFO_LVL_6, MCA_BASE_VAR_SCOPE_ALL,
        &c->guard_tolerance);
    c->guard_test_delay_us = 0;
    (void) mca_base_component_var_register(
        v, "guard_test_delay_us",
        "For tests of the guard only: delay every call that runs a pick of the model by this many "
        "microseconds (asleep), on the rank chosen by coll_modeltuned_guard_test_delay_rank",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_9, MCA_BASE_VAR_SCOPE_LOCAL,
        &c->guard_test_delay_us);
    c->guard_test_delay_rank = -1;
    (void) mca_base_component_var_register(
        v, "guard_test_delay_rank",
        "For tests of the guard only: the rank in MPI_COMM_WORLD whose picks "
        "coll_modeltuned_guard_test_delay_us slows; -1: every rank",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_9, MCA_BASE_VAR_SCOPE_LOCAL,
        &c->guard_test_delay_rank);
    register_guard_counter(v, "takebacks",
                           "Picks the guard took back, per collective (%s): each was slower than "
                           "Open MPI's default in two comparison windows in a row",
                           c->takebacks);
    register_guard_counter(
        v, "guard_windows",
        "Comparison windows the guard concluded, per collective (%s): each ran a "
        "few calls of a pick and of Open MPI's default and one small allreduce",
        c->guard_windows);
}

/* Search order of the calibration table when the parameter is empty. */
static char *find_default_table(void)
{
    char path[4096] = "";
    const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
    if (NULL != xdg && '\0' != xdg[0])
        snprintf(path, sizeof path, "%s/modeltuned/calibration.json", xdg);
    else if (NULL != home)
        snprintf(path, sizeof path, "%s/.config/modeltuned/calibration.json", home);
    if ('\0' != path[0] && 0 == access(path, F_OK))
        return strdup(path);
    snprintf(path, sizeof path, "%s/modeltuned/calibration.json", MODELTUNED_SYSCONFDIR);
    return 0 == access(path, F_OK) ? strdup(path) : NULL;
}

/* The table a job started now reads, as ompi_info shows it: the parameter, else the search's find.
 * Found once, here: load_table reads the same file. */
static void register_table_in_use(mca_coll_modeltuned_component_t *c)
{
    static char in_use[4096];
    char *found = NULL;
    if (NULL != c->calibration_file && '\0' != c->calibration_file[0])
        snprintf(in_use, sizeof in_use, "%s", c->calibration_file);
    else if (NULL != (found = find_default_table()))
        snprintf(in_use, sizeof in_use, "%s", found);
    free(found);
    c->table_in_use = in_use; /* the variable keeps a copy of its own */
    (void) mca_base_component_var_register(
        &c->super.collm_version, "table",
        "The calibration table this process reads (read-only): coll_modeltuned_calibration_file "
        "when set, else the first found of $XDG_CONFIG_HOME/modeltuned/calibration.json (default "
        "~/.config/modeltuned/calibration.json), the user's, and " MODELTUNED_SYSCONFDIR
        "/modeltuned/calibration.json, the system's; empty: none, and modeltuned steps aside",
        MCA_BASE_VAR_TYPE_STRING, NULL, 0, MCA_BASE_VAR_FLAG_DEFAULT_ONLY, OPAL_INFO_LVL_3,
        MCA_BASE_VAR_SCOPE_CONSTANT, &c->table_in_use);
}

static int modeltuned_register(void)
{
    mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    const mca_base_component_t *v = &c->super.collm_version;

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

    register_table_in_use(c);

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

    register_guard(c);
    return OMPI_SUCCESS;
}

/* Not opal_show_help, which under Open MPI 4.1's mpirun relays each rank's text through PMIx_Log:
 * the daemon forwards it from the PMIx thread without a thread shift (pmix_server_log_fn), and
 * messages sent by several ranks at once arrive corrupted or not at all ("ORTE_ERROR_LOG ...
 * show_help.c"; Open MPI's own too). The rank's stderr is reliable, so one rank prints. */
void mca_coll_modeltuned_show_help(bool here, const char *topic, ...)
{
    va_list ap;
    if (!here)
        return;
    va_start(ap, topic);
    char *text = opal_show_help_vstring(HELP_FILE, topic, true, ap);
    va_end(ap);
    if (NULL != text)
        fputs(text, stderr); /* not opal_output(0): it prefixes the first line */
    free(text);
}

/* The library the program runs against must be the one whose internal headers we compiled
 * with: the base algorithms' signatures and structures are not a stable ABI. */
static bool runtime_version_matches(char *running, size_t len)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int n = 0, major = -1, minor = -1, release = -1;
    MPI_Get_library_version(lib, &n);
    const char *v = strstr(lib, "v");
    if (NULL == v || 3 != sscanf(v, "v%d.%d.%d", &major, &minor, &release))
        snprintf(running, len, "an unrecognised version (%.60s)", lib); /* release stays -1 */
    else
        snprintf(running, len, "%d.%d.%d", major, minor, release);
    return major == OMPI_MAJOR_VERSION && minor == OMPI_MINOR_VERSION &&
           release == OMPI_RELEASE_VERSION;
}

/* NULL, or why modeltuned steps aside in this process. */
static const char *load_table(mca_coll_modeltuned_component_t *c)
{
    char *const *lists = c->algorithm_lists;
    /* Every rank usually reads the same input: world rank 0 says what is wrong. A rank whose input
     * differs publishes its problem (c->problem), which the rank reporting the mismatch names. */
    const bool first = 0 == OMPI_PROC_MY_NAME->vpid;
    char running[96], err[512];
    uint32_t mask;

    if (!runtime_version_matches(running, sizeof running)) {
        mca_coll_modeltuned_show_help(first, "version-mismatch", OMPI_MAJOR_VERSION,
                                      OMPI_MINOR_VERSION, OMPI_RELEASE_VERSION, running);
        (void) opal_asprintf(&c->problem, "modeltuned was built for Open MPI %d.%d.%d, this is %s",
                             OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION, OMPI_RELEASE_VERSION, running);
        return "built for another Open MPI version";
    }
    for (int op = 0; op < MT_OPS; ++op)
        if (0 != mt_parse_algorithms(op, lists[op], &mask, err, sizeof err)) {
            mca_coll_modeltuned_show_help(first, "bad-algorithm-list",
                                          mca_coll_modeltuned_op_name(op), lists[op], err);
            (void) opal_asprintf(&c->problem, "coll_modeltuned_%s_algorithms='%s': %s",
                                 mca_coll_modeltuned_op_name(op), lists[op], err);
            return "an algorithm list parameter is invalid";
        }
    if (c->guard_samples < 2 || c->guard_samples > MCA_COLL_MODELTUNED_GUARD_SAMPLES_MAX ||
        0 != c->guard_samples % 2 || !(c->guard_budget > 0 && c->guard_budget <= 1) ||
        !(c->guard_tolerance >= 0)) {
        mca_coll_modeltuned_show_help(first, "bad-guard-parameter", c->guard_samples,
                                      c->guard_budget, c->guard_tolerance);
        (void) opal_asprintf(&c->problem,
                             "coll_modeltuned_guard_samples=%d, _budget=%g, _tolerance=%g: out of "
                             "range",
                             c->guard_samples, c->guard_budget, c->guard_tolerance);
        return "a guard parameter is out of range";
    }
    if (c->objective_rejected) {
        const char *given = getenv("OMPI_MCA_coll_modeltuned_objective");
        mca_coll_modeltuned_show_help(first, "unknown-objective",
                                      NULL != given ? given : "(from a parameter file)");
    }
    if (NULL == c->table_in_use || '\0' == c->table_in_use[0]) {
        opal_output_verbose(
            1, c->output,
            "coll:modeltuned:open: no calibration table (set "
            "coll_modeltuned_calibration_file, or run modeltuned-calibrate); stepping aside");
        return "no calibration table";
    }
    if (NULL == (c->table_path = strdup(c->table_in_use)))
        return "out of memory";
    c->table = mt_table_load(c->table_path, err, sizeof err);
    if (NULL == c->table) {
        mca_coll_modeltuned_show_help(first, "calibration-file-unusable", c->table_path, err);
        (void) opal_asprintf(&c->problem, "calibration file '%s': %s", c->table_path, err);
        return "the calibration file cannot be used";
    }
    opal_output_verbose(10, c->output,
                        "coll:modeltuned:open: calibration table '%s' (checksum %016llx)",
                        c->table_path, (unsigned long long) mt_table_checksum(c->table));
    return NULL;
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
        c->disabled_reason = load_table(c);
    if (NULL != c->table)
        c->place = mca_coll_modeltuned_place_here(&c->node);
    return NULL;
}

/* What the ranks of a communicator must share to decide alike, hashed: each collective's algorithm
 * list at start and whether tuned was told what to run for it, the objective, and the guard's
 * settings that decide when its windows come and what they conclude. */
static uint64_t shared_settings(const mca_coll_modeltuned_component_t *c)
{
    char text[1024];
    size_t used = (size_t) snprintf(text, sizeof text, "objective=%d guard=%d %d %.17g %.17g",
                                    c->objective, (int) c->guard, c->guard_samples, c->guard_budget,
                                    c->guard_tolerance);
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

/* Where opal_show_help finds HELP_FILE (after Open MPI's own help directory): next to this shared
 * object as it was loaded (the build tree's mca-components/ links it there), then where make
 * install puts it. */
static void add_help_dirs(void)
{
    Dl_info self;
    char dir[4096], *slash;
    if (0 != dladdr((void *) &mca_coll_modeltuned_component, &self) && NULL != self.dli_fname &&
        (size_t) snprintf(dir, sizeof dir, "%s", self.dli_fname) < sizeof dir &&
        NULL != (slash = strrchr(dir, '/'))) {
        *slash = '\0';
        opal_show_help_add_dir(dir);
    }
    opal_show_help_add_dir(MODELTUNED_PKGDATADIR);
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
    add_help_dirs();
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
    mt_table_free(c->table);
    free(c->table_path);
    free(c->problem);
    c->problem = NULL;
    for (int op = 0; op < MT_OPS; ++op) {
        free(c->algorithms[op]);
        c->algorithms[op] = NULL;
    }
    opal_output_close(c->output);
    pthread_mutex_lock(&counters_lock);
    free(c->live); /* modules outliving close are no longer counted */
    c->live = NULL;
    c->live_count = c->live_capacity = 0;
    pthread_mutex_unlock(&counters_lock);
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
