/*
 * The calibration table: where a job finds it (coll_modeltuned_table, registered with the other
 * parameters) and, at open, its loading after the checks that decide whether modeltuned takes part
 * in this process: the Open MPI version it runs against, the algorithm lists, the guard's
 * parameters and the objective.
 */
#include "ompi_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll_modeltuned.h"
#include MCA_COLL_MODELTUNED_RTE_H
#include "opal/util/printf.h"

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
 * Found once, here: mca_coll_modeltuned_load_table reads the same file. */
void mca_coll_modeltuned_table_register(mca_coll_modeltuned_component_t *c)
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

/* The library the program runs against must be the one whose internal headers we compiled
 * with: the base algorithms' signatures and structures are not a stable ABI. The release is
 * compared whole, a pre-release's suffix with it ("6.0.0rc2", as mpicc said at configure). */
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
    const size_t length = strspn(v + 1, "0123456789.abcdefghijklmnopqrstuvwxyz");
    snprintf(running, len, "%.*s", (int) length, v + 1);
    return 0 == strcmp(running, MODELTUNED_OMPI_RELEASE);
}

/* NULL, or why modeltuned steps aside in this process: the version check, the parameters' and the
 * table's. */
const char *mca_coll_modeltuned_load_table(mca_coll_modeltuned_component_t *c)
{
    char *const *lists = c->algorithm_lists;
    /* Every rank usually reads the same input: world rank 0 says what is wrong. A rank whose input
     * differs publishes its problem (c->problem), which the rank reporting the mismatch names. */
    const bool first = 0 == OMPI_PROC_MY_NAME->vpid;
    char running[96], err[512];
    uint32_t mask;

    if (!runtime_version_matches(running, sizeof running)) {
        mca_coll_modeltuned_show_help(first, "version-mismatch", MODELTUNED_OMPI_RELEASE, running);
        (void) opal_asprintf(&c->problem, "modeltuned was built for Open MPI %s, this is %s",
                             MODELTUNED_OMPI_RELEASE, running);
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
    if (!mca_coll_modeltuned_guard_parameters_valid(c)) {
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
