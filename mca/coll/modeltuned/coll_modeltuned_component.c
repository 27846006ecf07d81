/*
 * Registration only: the component structure, its MCA parameters, open and close.
 */
#include "ompi_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opal/mca/base/mca_base_pvar.h"

#include "coll_modeltuned.h"

const char *mca_coll_modeltuned_component_version_string =
    "Open MPI modeltuned collective MCA component version " PACKAGE_VERSION;

static int modeltuned_register(void);
static int modeltuned_open(void);
static int modeltuned_close(void);

mca_coll_modeltuned_component_t mca_coll_modeltuned_component = {
    .super = {
        .collm_version = {
            MCA_COLL_BASE_VERSION_2_0_0,
            .mca_component_name = "modeltuned",
            MCA_BASE_MAKE_VERSION(component, 0, 1, 0),
            .mca_open_component = modeltuned_open,
            .mca_close_component = modeltuned_close,
            .mca_register_component_params = modeltuned_register,
        },
        .collm_data = {
            MCA_BASE_METADATA_PARAM_CHECKPOINT
        },
        .collm_init_query = mca_coll_modeltuned_init_query,
        .collm_comm_query = mca_coll_modeltuned_comm_query,
    },
};

static int counters_get(const struct mca_base_pvar_t *pvar, void *value, void *obj)
{
    memcpy(value, pvar->ctx, sizeof(unsigned long long) * MCA_COLL_MODELTUNED_COUNTERS);
    return OMPI_SUCCESS;
}

static int counters_notify(struct mca_base_pvar_t *pvar, mca_base_pvar_event_t event, void *obj,
                           int *count)
{
    if (MCA_BASE_PVAR_HANDLE_BIND == event) *count = MCA_COLL_MODELTUNED_COUNTERS;
    return OMPI_SUCCESS;
}

static int modeltuned_register(void)
{
    mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    const mca_base_component_t *v = &c->super.collm_version;

    /* Above tuned (30) so that, where it is loaded and has a table, it owns bcast and reduce.
     * Writable at run time (MPI_T): communicators created after a change follow it. */
    c->priority = 40;
    (void) mca_base_component_var_register(v, "priority",
        "Priority of the modeltuned coll component (tuned's is 30; a negative value disables "
        "modeltuned for communicators created afterwards)",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_6,
        MCA_BASE_VAR_SCOPE_ALL, &c->priority);

    c->verbose = 0;
    (void) mca_base_component_var_register(v, "verbose",
        "Verbosity of modeltuned: 1 = why it steps aside, 10 = each decision (comm rank 0), "
        "20 = every call on every rank",
        MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_LOCAL,
        &c->verbose);

    c->calibration_file = NULL;
    (void) mca_base_component_var_register(v, "calibration_file",
        "Calibration table (JSON, see docs/calibration-format.md). When empty, the first file "
        "found of $XDG_CONFIG_HOME/modeltuned/calibration.json (default "
        "~/.config/modeltuned/calibration.json) and " MODELTUNED_SYSCONFDIR
        "/modeltuned/calibration.json is used; with none, modeltuned steps aside",
        MCA_BASE_VAR_TYPE_STRING, NULL, 0, 0, OPAL_INFO_LVL_3, MCA_BASE_VAR_SCOPE_READONLY,
        &c->calibration_file);

    c->bcast_algorithms = "";
    (void) mca_base_component_var_register(v, "bcast_algorithms",
        "Bcast algorithms modeltuned may choose, by name or tuned's number, comma-separated "
        "(linear, chain, pipeline, split_bintree, bintree, binomial, knomial, scatter_allgather, "
        "scatter_allgather_ring); empty or \"all\" = every one. Writable at run time (MPI_T): "
        "communicators created afterwards follow it",
        MCA_BASE_VAR_TYPE_STRING, NULL, 0, MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_5,
        MCA_BASE_VAR_SCOPE_ALL, &c->bcast_algorithms);

    c->reduce_algorithms = "";
    (void) mca_base_component_var_register(v, "reduce_algorithms",
        "Reduce algorithms modeltuned may choose, by name or tuned's number, comma-separated "
        "(linear, chain, pipeline, binary, binomial, in_order_binary, rabenseifner); empty or "
        "\"all\" = every one. Non-commutative operations only ever get linear or in_order_binary. "
        "Writable at run time (MPI_T): communicators created afterwards follow it",
        MCA_BASE_VAR_TYPE_STRING, NULL, 0, MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_5,
        MCA_BASE_VAR_SCOPE_ALL, &c->reduce_algorithms);

    c->decision_file = NULL;
    (void) mca_base_component_var_register(v, "decision_file",
        "Append every decision (communicator, size class, root, pick, every candidate's prediction "
        "and Open MPI's default) as a JSON line to this file; \"%r\" in the name is replaced by the "
        "rank in MPI_COMM_WORLD to get one file per rank, otherwise rank 0 of each communicator "
        "writes. Read it with: modeltuned explain --decisions FILE",
        MCA_BASE_VAR_TYPE_STRING, NULL, 0, 0, OPAL_INFO_LVL_4, MCA_BASE_VAR_SCOPE_READONLY,
        &c->decision_file);

    /* Measured on the 2-core development VM with 4 ranks: the picks ran up to 6x slower than Open
     * MPI's, since every pipeline stage or exchange round waits for a rank to be scheduled. */
    c->oversubscribed = false;
    (void) mca_base_component_var_register(v, "oversubscribed",
        "Decide on nodes Open MPI runs oversubscribed (more ranks than cores, mpi_oversubscribe) "
        "too. By default modeltuned steps aside on every communicator with a rank on such a node: "
        "its model assumes a core per rank, and time-shared ranks make pipelines and exchange "
        "rounds far slower than it predicts",
        MCA_BASE_VAR_TYPE_BOOL, NULL, 0, 0, OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_READONLY,
        &c->oversubscribed);

    static const char *const op_names[2] = {"bcast", "reduce"};
    for (int op = 0; op < 2; ++op) {
        char name[32], description[160];
        snprintf(name, sizeof name, "%s_calls", op_names[op]);
        snprintf(description, sizeof description, "MPI_%c%s calls modeltuned ran, per tuned algorithm "
                 "number (index 0: handed to the previous component)", op_names[op][0] - 'a' + 'A',
                 op_names[op] + 1);
        (void) mca_base_component_pvar_register(v, name, description, OPAL_INFO_LVL_4,
            MPI_T_PVAR_CLASS_COUNTER, MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG, NULL, MPI_T_BIND_NO_OBJECT,
            MCA_BASE_PVAR_FLAG_READONLY | MCA_BASE_PVAR_FLAG_CONTINUOUS, counters_get, NULL,
            counters_notify, c->calls[op]);
    }
    return OMPI_SUCCESS;
}

static int modeltuned_open(void)
{
    mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    c->output = opal_output_open(NULL);
    opal_output_set_verbosity(c->output, c->verbose);
    c->table = NULL;
    c->table_path = NULL;
    c->disabled_reason = NULL;
    for (int op = 0; op < 2; ++op) {
        mt_algorithm_info info;
        c->splitting[op] = 0;
        for (int i = 0; mt_algorithm_at(op, i, &info) == 0; ++i)
            if (info.splits && info.id < 32) c->splitting[op] |= 1u << info.id;
    }
    mca_coll_modeltuned_prepare();
    return OMPI_SUCCESS;
}

static int modeltuned_close(void)
{
    mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    mt_table_free(c->table);
    c->table = NULL;
    free(c->table_path);
    c->table_path = NULL;
    free(c->disabled_reason);
    c->disabled_reason = NULL;
    opal_output_close(c->output);
    return OMPI_SUCCESS;
}
