/*
 * When the user has told tuned what to run for an operation, that operation is theirs: tuned's
 * dynamic rules (coll_tuned_use_dynamic_rules) with a forced algorithm (coll_tuned_<op>_algorithm)
 * or a rules file (coll_tuned_dynamic_rules_filename) replace its fixed rules, which are what the
 * model weighs its picks against, and a forced algorithm is an explicit choice (an A/B run, a
 * workaround) that modeltuned must not override. modeltuned leaves such an operation to tuned.
 */
#include "ompi_config.h"

#include <stdio.h>

#include "coll_modeltuned.h"
#include "opal/mca/base/mca_base_var.h"

/* Where tuned's variable `name` is stored, or NULL when tuned is not loaded (its variables are
 * registered when the coll framework opens, before any component's open, so they exist at
 * modeltuned's). The storage is the variable's own type (bool, int, char *), not the union
 * mca_base_var_storage_t, whose alignment an int's storage need not have. */
static const void *tuned_variable(const char *name)
{
    const int index = mca_base_var_find("ompi", "coll", "tuned", name);
    const void *value = NULL;
    if (index < 0 || OPAL_SUCCESS != mca_base_var_get_value(index, &value, NULL, NULL))
        return NULL;
    return value;
}

bool mca_coll_modeltuned_tuned_is_told(int op, char *why, size_t why_size)
{
    const bool *dynamic = tuned_variable("use_dynamic_rules");
    if (NULL == dynamic || !*dynamic)
        return false;
    char algorithm_name[64];
    snprintf(algorithm_name, sizeof algorithm_name, "%s_algorithm",
             mca_coll_modeltuned_op_name(op));
    const int *algorithm = tuned_variable(algorithm_name);
    char *const *rules = tuned_variable("dynamic_rules_filename");
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
                     "coll_tuned_use_dynamic_rules is set and coll_tuned_%s=%d forces an algorithm",
                     algorithm_name, *algorithm);
        return true;
    }
    return false;
}
