/*
 * The job's coll component list (--mca coll LIST): a list replaces Open MPI's whole set of
 * collective components, and one that leaves out a component the job's communicators need breaks
 * them silently. Under 4.1, without coll/inter an intercommunicator's collectives go to coll/basic,
 * whose scatter crashes (mca_coll_basic_scatter_inter); under 5.0 without coll/han every
 * communicator across nodes loses the hierarchical default. Leaving out basic or libnbc makes
 * Open MPI itself refuse the communicator loudly, so those are not named here.
 */
#include "ompi_config.h"

#include <stdio.h>
#include <string.h>

#include "coll_modeltuned.h"
#include "opal/mca/base/mca_base_var.h"

/* What each needed component does; han only in the series that enables it by default. */
static const struct {
    const char *name, *role;
    int from_major;
} needed[] = {
    {"inter", "without it, intercommunicator collectives go to coll/basic, whose scatter crashes",
     0},
    {"han", "without it, communicators across nodes lose Open MPI 5's hierarchical collectives", 5},
};

/* Whether `name` is an element of the comma-separated `list`. */
static bool listed(const char *list, const char *name)
{
    const size_t length = strlen(name);
    for (const char *p = list; NULL != p && '\0' != *p;) {
        while (' ' == *p)
            ++p;
        if (0 == strncmp(p, name, length) &&
            (',' == p[length] || ' ' == p[length] || '\0' == p[length]))
            return true;
        p = strchr(p, ',');
        if (NULL != p)
            ++p;
    }
    return false;
}

bool mca_coll_modeltuned_coll_list_gap(char *what, size_t what_size, char *list, size_t list_size)
{
    const int index = mca_base_var_find("ompi", "coll", NULL, NULL);
    const void *storage = NULL;
    if (index < 0 || OPAL_SUCCESS != mca_base_var_get_value(index, &storage, NULL, NULL) ||
        NULL == storage)
        return false;
    char *const *value = storage; /* a string variable's storage is its char * */
    if (NULL == *value || '\0' == (*value)[0])
        return false;
    const bool exclude = '^' == (*value)[0];
    const char *names = exclude ? *value + 1 : *value;
    size_t used = 0;
    what[0] = '\0';
    for (size_t i = 0; i < sizeof needed / sizeof *needed; ++i) {
        if (OMPI_MAJOR_VERSION < needed[i].from_major || listed(names, needed[i].name) != exclude)
            continue;
        used += snprintf(what + used, used < what_size ? what_size - used : 0, "%scoll/%s (%s)",
                         0 == used ? "" : "; ", needed[i].name, needed[i].role);
    }
    snprintf(list, list_size, "%s", *value);
    return used > 0;
}
