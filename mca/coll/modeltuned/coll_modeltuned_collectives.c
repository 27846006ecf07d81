/*
 * The list of collectives (coll_modeltuned_collectives.h) as a table of their files' tables, in the
 * model's order, and their names.
 */
#include "ompi_config.h"

#include <stdio.h>

#include "coll_modeltuned.h"

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
