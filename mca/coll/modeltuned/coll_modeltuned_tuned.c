/*
 * When the user has told tuned what to run for an operation, that operation is theirs: tuned's
 * dynamic rules (coll_tuned_use_dynamic_rules) with a forced algorithm (coll_tuned_<op>_algorithm)
 * or a rules file (coll_tuned_dynamic_rules_filename) replace its fixed rules, which are what the
 * model weighs its picks against, and a forced algorithm is an explicit choice (an A/B run, a
 * workaround) that modeltuned must not override. modeltuned leaves such an operation to tuned.
 */
#include "ompi_config.h"

#include <pthread.h>
#include <stdio.h>

#include "coll_modeltuned.h"
#include "opal/mca/base/mca_base_var.h"

/* Tuned's variables, found by name once: a variable keeps its index for the life of the process,
 * and looking one up by name costs more than the rest of a communicator's query. -1: tuned is not
 * loaded (its variables are registered when the coll framework opens, before any component's
 * open, so they exist at modeltuned's). */
enum {
    USE_DYNAMIC_RULES,
    RULES_FILENAME,
    FIRST_ALGORITHM,
    TUNED_VARIABLES = FIRST_ALGORITHM + MT_OPS
};
static int tuned_indices[TUNED_VARIABLES];
static pthread_once_t tuned_indices_once = PTHREAD_ONCE_INIT;

static void find_tuned_variables(void)
{
    tuned_indices[USE_DYNAMIC_RULES] = mca_base_var_find("ompi", "coll", "tuned",
                                                         "use_dynamic_rules");
    tuned_indices[RULES_FILENAME] = mca_base_var_find("ompi", "coll", "tuned",
                                                      "dynamic_rules_filename");
    for (int op = 0; op < MT_OPS; ++op) {
        char name[64];
        snprintf(name, sizeof name, "%s_algorithm", mca_coll_modeltuned_op_name(op));
        tuned_indices[FIRST_ALGORITHM + op] = mca_base_var_find("ompi", "coll", "tuned", name);
    }
}

/* Where tuned's variable `which` is stored, or NULL. The storage is the variable's own type (bool,
 * int, char *), not the union mca_base_var_storage_t, whose alignment an int's storage need not
 * have. */
static const void *tuned_variable(int which)
{
    (void) pthread_once(&tuned_indices_once, find_tuned_variables);
    const int index = tuned_indices[which];
    const void *value = NULL;
    if (index < 0 || OPAL_SUCCESS != mca_base_var_get_value(index, &value, NULL, NULL))
        return NULL;
    return value;
}

static bool dynamic_rules(void)
{
    const bool *dynamic = tuned_variable(USE_DYNAMIC_RULES);
    return NULL != dynamic && *dynamic;
}

bool mca_coll_modeltuned_tuned_is_told(int op, char *why, size_t why_size)
{
    if (!dynamic_rules())
        return false;
    const int *algorithm = tuned_variable(FIRST_ALGORITHM + op);
    char *const *rules = tuned_variable(RULES_FILENAME);
    /* A rules file can hold rules for any operation and communicator size: without reading it,
     * every operation is taken as covered. */
    if (NULL != rules && NULL != *rules && '\0' != (*rules)[0]) {
        if (NULL != why)
            snprintf(why, why_size,
                     "coll_tuned_use_dynamic_rules is set with the rules file "
                     "coll_tuned_dynamic_rules_filename=%s",
                     *rules);
        return true;
    }
    if (NULL != algorithm && 0 != *algorithm) {
        if (NULL != why)
            snprintf(why, why_size,
                     "coll_tuned_use_dynamic_rules is set and coll_tuned_%s_algorithm=%d forces an "
                     "algorithm",
                     mca_coll_modeltuned_op_name(op), *algorithm);
        return true;
    }
    return false;
}

void mca_coll_modeltuned_tuned_told(char told[MT_OPS][MCA_COLL_MODELTUNED_REASON_MAX])
{
    const bool dynamic = dynamic_rules(); /* usually off: then nothing else is read */
    for (int op = 0; op < MT_OPS; ++op)
        if (!dynamic || !mca_coll_modeltuned_tuned_is_told(op, told[op], sizeof told[op]))
            told[op][0] = '\0';
}
