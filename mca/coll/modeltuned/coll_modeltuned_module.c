/*
 * Query, enable, disable: whether modeltuned takes a communicator, and what it falls back to.
 */
#include "ompi_config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll_modeltuned.h"
#include "ompi/mca/coll/base/coll_base_functions.h"
#include "ompi/mca/rte/rte.h"
#include "opal/mca/hwloc/base/base.h"
#include "opal/mca/pmix/pmix.h"
#include "ompi/proc/proc.h"
#include "ompi/runtime/mpiruntime.h"
#include "opal/util/printf.h"

static void module_construct(mca_coll_modeltuned_module_t *m)
{
    m->state = MCA_COLL_MODELTUNED_UNPLACED;
    m->model = NULL;
    m->previous_bcast = NULL;
    m->previous_bcast_module = NULL;
    m->previous_reduce = NULL;
    m->previous_reduce_module = NULL;
    m->remembered = NULL;
    m->remembered_capacity = m->remembered_count = 0;
    for (int slot = 0; slot < MCA_COLL_MODELTUNED_SLOTS; ++slot)
        for (int k = 0; k < MCA_COLL_MODELTUNED_SIZE_CLASSES; ++k)
            m->choices[slot][k].root = -1;
}

static void module_destruct(mca_coll_modeltuned_module_t *m)
{
    mt_comm_model_free(m->model);
    m->model = NULL;
    free(m->remembered);
    m->remembered = NULL;
    if (NULL != m->previous_bcast_module) OBJ_RELEASE(m->previous_bcast_module);
    if (NULL != m->previous_reduce_module) OBJ_RELEASE(m->previous_reduce_module);
}

OBJ_CLASS_INSTANCE(mca_coll_modeltuned_module_t, mca_coll_base_module_t,
                   module_construct, module_destruct);

/* Steps modeltuned aside for the whole process. The one line goes to stderr from world rank 0
 * only (every rank usually reads the same file), and to the verbose stream everywhere. */
static void disable_everywhere(const char *fmt, ...)
{
    mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    va_list ap;
    char *reason = NULL;
    va_start(ap, fmt);
    if (opal_vasprintf(&reason, fmt, ap) < 0) reason = NULL;
    va_end(ap);
    if (NULL == reason) return;
    if (0 == OMPI_PROC_MY_NAME->vpid) {
        opal_output(0, "coll:modeltuned: %s; Open MPI's own decisions will be used", reason);
    } else {
        opal_output_verbose(1, c->output, "coll:modeltuned: %s; Open MPI's own decisions will be used",
                            reason);
    }
    free(c->disabled_reason);
    c->disabled_reason = reason;
}

/* The library the program runs against must be the one whose internal headers we compiled
 * with: the base algorithms' signatures and structures are not a stable ABI. */
static bool runtime_version_matches(char *running, size_t len)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int n = 0, major = -1, minor = -1, release = -1;
    MPI_Get_library_version(lib, &n);
    const char *v = strstr(lib, "v");
    if (NULL == v || 3 != sscanf(v, "v%d.%d.%d", &major, &minor, &release)) {
        snprintf(running, len, "an unrecognised version (%.60s)", lib);
        return false;
    }
    snprintf(running, len, "%d.%d.%d", major, minor, release);
    return major == OMPI_MAJOR_VERSION && minor == OMPI_MINOR_VERSION &&
           release == OMPI_RELEASE_VERSION;
}

/* Search order of the calibration table when the parameter is empty. */
static char *find_default_table(void)
{
    char path[4096];
    const char *xdg = getenv("XDG_CONFIG_HOME");
    const char *home = getenv("HOME");
    if (NULL != xdg && '\0' != xdg[0]) {
        snprintf(path, sizeof path, "%s/modeltuned/calibration.json", xdg);
    } else if (NULL != home) {
        snprintf(path, sizeof path, "%s/.config/modeltuned/calibration.json", home);
    } else {
        path[0] = '\0';
    }
    if ('\0' != path[0] && 0 == access(path, F_OK)) return strdup(path);
    snprintf(path, sizeof path, "%s/modeltuned/calibration.json", MODELTUNED_SYSCONFDIR);
    if (0 == access(path, F_OK)) return strdup(path);
    return NULL;
}

/* A table measured on another kind of node may not hold here: say so, once per node, at verbose
 * level 1 (the table is still used: a shipped or shared table is a legitimate choice). */
static void warn_if_other_topology(mca_coll_modeltuned_component_t *c)
{
    char msg[512];
    if (c->verbose < 1 || 0 != ompi_process_info.my_local_rank ||
        OPAL_SUCCESS != opal_hwloc_base_get_topology() || NULL == opal_hwloc_topology)
        return;
    hwloc_topology_t t = opal_hwloc_topology;
    int rc = mt_table_topology_mismatch(c->table, hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PACKAGE),
                                        hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE),
                                        hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_L3CACHE),
                                        hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE),
                                        hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU), msg, sizeof msg);
    if (0 != rc)
        opal_output(c->output, "coll:modeltuned:init_query: calibration file '%s': %s", c->table_path, msg);
}

/* The key each process publishes its table's checksum under (0: no usable table). */
#define TABLE_KEY "coll.modeltuned.table"
/* 1: this process runs on an oversubscribed node and modeltuned must step aside there. */
#define OVERSUBSCRIBED_KEY "coll.modeltuned.oversubscribed"

/* Open MPI's runtime sets mpi_oversubscribe for the processes of an oversubscribed node. */
static bool node_oversubscribed(void)
{
    const void *value = NULL;
    const int index = mca_base_var_find("ompi", "mpi", NULL, "oversubscribe");
    if (index < 0 || OPAL_SUCCESS != mca_base_var_get_value(index, &value, NULL, NULL) || NULL == value)
        return false;
    return *(const bool *) value;
}

static void load_table(mca_coll_modeltuned_component_t *c)
{
    char running[96], err[512];
    uint32_t mask;

    if (!runtime_version_matches(running, sizeof running)) {
        disable_everywhere("built for Open MPI %d.%d.%d but running under %s; rebuild modeltuned "
                           "against this Open MPI", OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION,
                           OMPI_RELEASE_VERSION, running);
        return;
    }
    if (0 != mt_parse_algorithms(MT_OP_BCAST, c->bcast_algorithms, &mask, err, sizeof err)) {
        disable_everywhere("parameter coll_modeltuned_bcast_algorithms='%s': %s", c->bcast_algorithms, err);
        return;
    }
    if (0 != mt_parse_algorithms(MT_OP_REDUCE, c->reduce_algorithms, &mask, err, sizeof err)) {
        disable_everywhere("parameter coll_modeltuned_reduce_algorithms='%s': %s", c->reduce_algorithms, err);
        return;
    }
    if (NULL != c->calibration_file && '\0' != c->calibration_file[0]) {
        c->table_path = strdup(c->calibration_file);
    } else if (NULL == (c->table_path = find_default_table())) {
        opal_output_verbose(1, c->output, "coll:modeltuned:open: no calibration table (set "
                            "coll_modeltuned_calibration_file, or run modeltuned-calibrate); stepping aside");
        c->disabled_reason = strdup("no calibration table");
        return;
    }
    c->table = mt_table_load(c->table_path, err, sizeof err);
    if (NULL == c->table) {
        disable_everywhere("calibration file '%s': %s", c->table_path, err);
        return;
    }
    opal_output_verbose(10, c->output, "coll:modeltuned:open: calibration table '%s' (checksum %016llx)",
                        c->table_path, (unsigned long long) mt_table_checksum(c->table));
}

/* At component open, inside MPI_Init and before its modex exchange: load the table and publish
 * its checksum, so that comm_query can see every rank's table without communicating (ompi_info
 * opens components too, outside MPI_Init: nothing to do there). */
void mca_coll_modeltuned_prepare(void)
{
    mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    if (ompi_mpi_state < OMPI_MPI_STATE_INIT_STARTED) return;
    load_table(c);
    uint64_t published = NULL == c->table ? 0 : mt_table_checksum(c->table);
    int rc;
    OPAL_MODEX_SEND_VALUE(rc, OPAL_PMIX_GLOBAL, TABLE_KEY, &published, OPAL_UINT64);
    if (OPAL_SUCCESS != rc)
        opal_output_verbose(1, c->output, "coll:modeltuned:open: cannot publish the table checksum (%d); "
                            "modeltuned will step aside", rc);
    uint64_t flag = !c->oversubscribed && node_oversubscribed() ? 1 : 0;
    OPAL_MODEX_SEND_VALUE(rc, OPAL_PMIX_GLOBAL, OVERSUBSCRIBED_KEY, &flag, OPAL_UINT64);
}

/* What each process published at open, under these keys (both OPAL_UINT64). */
enum published_key { PUBLISHED_TABLE, PUBLISHED_OVERSUBSCRIBED, PUBLISHED_KEYS };
static const char *const published_key_names[PUBLISHED_KEYS] = {TABLE_KEY, OVERSUBSCRIBED_KEY};

/* The value a rank published under `key`; cached per rank of this job (the modex is read-only
 * after MPI_Init). OPAL_ERR_NOT_FOUND when it published none (modeltuned not loaded there). */
static int published_value(ompi_proc_t *proc, enum published_key key, uint64_t *out)
{
    static uint64_t *cache[PUBLISHED_KEYS];  /* per vpid of this job: value + 1, 0 = not looked up */
    static uint32_t cached_procs;
    const bool same_job = proc->super.proc_name.jobid == OMPI_PROC_MY_NAME->jobid;
    const uint32_t vpid = proc->super.proc_name.vpid;
    if (same_job && 0 == cached_procs && ompi_process_info.num_procs > 0) {
        cached_procs = ompi_process_info.num_procs;
        for (int k = 0; k < PUBLISHED_KEYS; ++k) cache[k] = calloc(cached_procs, sizeof *cache[k]);
    }
    uint64_t *slot = same_job && NULL != cache[key] && vpid < cached_procs ? &cache[key][vpid] : NULL;
    if (NULL != slot && 0 != *slot) {
        if (UINT64_MAX == *slot) return OPAL_ERR_NOT_FOUND;
        *out = *slot - 1;
        return OPAL_SUCCESS;
    }
    uint64_t value = 0, *ptr = &value;
    int rc;
    OPAL_MODEX_RECV_VALUE_OPTIONAL(rc, published_key_names[key], &proc->super.proc_name, &ptr, OPAL_UINT64);
    if (NULL != slot) *slot = OPAL_SUCCESS == rc && value != UINT64_MAX ? value + 1 : UINT64_MAX;
    if (OPAL_SUCCESS != rc) return OPAL_ERR_NOT_FOUND;
    *out = value;
    return OPAL_SUCCESS;
}

/* Whether some rank of `comm` must step aside for oversubscription; every rank reads the same
 * published flags, so all decline alike. */
static bool oversubscribed_somewhere(struct ompi_communicator_t *comm, int *which)
{
    for (int r = 0; r < ompi_comm_size(comm); ++r) {
        uint64_t flag = 0;
        if (OPAL_SUCCESS == published_value(ompi_comm_peer_lookup(comm, r), PUBLISHED_OVERSUBSCRIBED, &flag) &&
            0 != flag) {
            *which = r;
            return true;
        }
    }
    return false;
}

int mca_coll_modeltuned_init_query(bool enable_progress_threads, bool enable_mpi_threads)
{
    mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    if (NULL != c->table) warn_if_other_topology(c);
    return OMPI_SUCCESS;
}

/* Every rank of `comm` published the table this rank loaded: all ranks answer comm_query alike
 * (each sees the same published values), so no rank runs modeltuned's bcast while another runs
 * Open MPI's. */
static bool same_table_everywhere(struct ompi_communicator_t *comm, const char **why, bool *first_with_table)
{
    static char reason[160];
    mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    const uint64_t mine = mt_table_checksum(c->table);
    const int me = ompi_comm_rank(comm);
    bool same = true;
    *first_with_table = true;
    for (int r = 0; r < ompi_comm_size(comm); ++r) {
        uint64_t theirs = 0;
        if (r == me) continue;
        const bool published = OPAL_SUCCESS == published_value(ompi_comm_peer_lookup(comm, r), PUBLISHED_TABLE, &theirs);
        if (r < me && published && theirs == mine) *first_with_table = false;
        if (same && (!published || 0 == theirs)) {
            snprintf(reason, sizeof reason, "rank %d of this communicator has no usable calibration table "
                     "(check the file on every node)", r);
            same = false;
        } else if (same && theirs != mine) {
            snprintf(reason, sizeof reason, "rank %d of this communicator uses another calibration table "
                     "(use the same file on every node)", r);
            same = false;
        }
    }
    if (!same) *why = reason;
    return same;
}

static int module_enable(mca_coll_base_module_t *module, struct ompi_communicator_t *comm)
{
    mca_coll_modeltuned_module_t *m = (mca_coll_modeltuned_module_t *) module;

    /* What the lower-priority components installed is our fallback. */
    if (NULL == comm->c_coll->coll_bcast_module || NULL == comm->c_coll->coll_reduce_module) {
        opal_output_verbose(1, mca_coll_modeltuned_component.output,
                            "coll:modeltuned:module_enable cid=%d name=%s: no component below "
                            "to fall back to; not enabling", ompi_comm_get_cid(comm), comm->c_name);
        return OMPI_ERROR;
    }
    m->previous_bcast = comm->c_coll->coll_bcast;
    m->previous_bcast_module = comm->c_coll->coll_bcast_module;
    OBJ_RETAIN(m->previous_bcast_module);
    m->previous_reduce = comm->c_coll->coll_reduce;
    m->previous_reduce_module = comm->c_coll->coll_reduce_module;
    OBJ_RETAIN(m->previous_reduce_module);

    /* The base algorithms keep their trees and request arrays here. */
    m->super.base_data = OBJ_NEW(mca_coll_base_comm_t);
    return NULL == m->super.base_data ? OMPI_ERR_OUT_OF_RESOURCE : OMPI_SUCCESS;
}

/* Called once per slot we hold (bcast, reduce): must be idempotent. Nothing to restore in 4.1,
 * where unselect clears the slots itself; the fallback modules are released with the module. */
static int module_disable(mca_coll_base_module_t *module, struct ompi_communicator_t *comm)
{
    mca_coll_modeltuned_module_t *m = (mca_coll_modeltuned_module_t *) module;
    mt_comm_model_free(m->model);
    m->model = NULL;
    m->state = MCA_COLL_MODELTUNED_FALLBACK;
    return OMPI_SUCCESS;
}

mca_coll_base_module_t *mca_coll_modeltuned_comm_query(struct ompi_communicator_t *comm,
                                                       int *priority)
{
    mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    const char *why = NULL;
    uint32_t allowed[2];
    char err[512];
    bool first_with_table = false;
    int oversubscribed_rank = -1;
    static char oversubscribed_why[200];

    *priority = c->priority;
    if (c->priority < 0) {
        why = "priority is negative";
    } else if (OMPI_COMM_IS_INTER(comm)) {
        why = "intercommunicator";
    } else if (ompi_comm_size(comm) < 2) {
        why = "a single rank";
    } else if (NULL == c->table) {
        why = NULL != c->disabled_reason ? c->disabled_reason : "no calibration table";
    } else if (!same_table_everywhere(comm, &why, &first_with_table)) {
        if (!c->table_mismatch_reported && first_with_table) {  /* an installation problem: once */
            c->table_mismatch_reported = true;
            opal_output(0, "coll:modeltuned: cid=%d name=%s: %s; Open MPI's own decisions will be "
                        "used", ompi_comm_get_cid(comm), comm->c_name, why);
        }
    } else if (oversubscribed_somewhere(comm, &oversubscribed_rank)) {
        snprintf(oversubscribed_why, sizeof oversubscribed_why, "rank %d of this communicator runs on "
                 "an oversubscribed node (more ranks than cores), where the model does not hold; set "
                 "coll_modeltuned_oversubscribed 1 to decide anyway", oversubscribed_rank);
        why = oversubscribed_why;  /* not an installation problem: verbose only, as below */
    } else if (0 != mt_parse_algorithms(MT_OP_BCAST, c->bcast_algorithms, &allowed[MT_OP_BCAST], err, sizeof err) ||
               0 != mt_parse_algorithms(MT_OP_REDUCE, c->reduce_algorithms, &allowed[MT_OP_REDUCE], err, sizeof err)) {
        /* Only reachable after an MPI_T write: the values at MPI_Init were checked there. Every
         * rank must have written the same value (the variables' scope is "all"). */
        opal_output(0, "coll:modeltuned: cid=%d name=%s: coll_modeltuned_{bcast,reduce}_algorithms: %s; "
                    "Open MPI's own decisions will be used on this communicator",
                    ompi_comm_get_cid(comm), comm->c_name, err);
        return NULL;
    }
    if (NULL != why) {
        opal_output_verbose(1, c->output, "coll:modeltuned:comm_query cid=%d name=%s: declining: %s",
                            ompi_comm_get_cid(comm), comm->c_name, why);
        return NULL;
    }

    mca_coll_modeltuned_module_t *m = OBJ_NEW(mca_coll_modeltuned_module_t);
    if (NULL == m) return NULL;
    m->allowed[MT_OP_BCAST] = allowed[MT_OP_BCAST];
    m->allowed[MT_OP_REDUCE] = allowed[MT_OP_REDUCE];
    m->super.coll_module_enable = module_enable;
    m->super.coll_module_disable = module_disable;
    m->super.coll_bcast = mca_coll_modeltuned_bcast;
    m->super.coll_reduce = mca_coll_modeltuned_reduce;
    return &m->super;
}
