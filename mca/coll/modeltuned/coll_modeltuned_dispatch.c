/*
 * The dispatch table, generated at open from the model's registry (mt_algorithm_at): each
 * algorithm's ompi_coll_base_* function, found by its symbol, and its calling convention
 * (MT_CALL_*), in which its collective's file calls it with the decision's segment size and
 * fan-out.
 */
#include "ompi_config.h"

#include <dlfcn.h>
#include <stdlib.h>

#include "coll_modeltuned.h"

/* Whether a calling convention (MT_CALL_*) is one of `op`'s. */
static bool convention_fits(int op, int convention)
{
    const mca_coll_modeltuned_collective_t *collective = mca_coll_modeltuned_collectives[op];
    return convention >= collective->first_convention && convention <= collective->last_convention;
}

/* Each function is looked up by name in the scope of this object, which links libmpi.so.40 (glibc's
 * RTLD_DEFAULT searches the caller's dependencies too, also where libmpi is not RTLD_GLOBAL). One
 * not found is left out of `runnable`: comm_query never allows it, so the model never picks it, and
 * the ranks of a communicator agree on that (the allowed masks are compared at setup). */
int mca_coll_modeltuned_dispatch_open(void)
{
    mca_coll_modeltuned_component_t *c = &mca_coll_modeltuned_component;
    mt_algorithm_info info;
    for (int op = 0; op < MT_OPS; ++op) {
        c->runnable[op] = 0;
        if (NULL == (c->algorithms[op] = calloc(c->slots, sizeof *c->algorithms[op])))
            return OMPI_ERR_OUT_OF_RESOURCE;
        for (int id = 0; id < c->slots; ++id)
            c->algorithms[op][id].convention = -1;
        for (int i = 0; 0 == mt_algorithm_at(op, i, &info); ++i) {
            const bool foreign = '\0' != info.component[0];
            void *fn = foreign ? mca_coll_modeltuned_foreign_entry(info.ompi_function)
                               : dlsym(RTLD_DEFAULT, info.ompi_function);
            const bool fits = convention_fits(op, info.convention);
            const bool loaded = !foreign || mca_coll_modeltuned_foreign_loaded(info.component);
            if (NULL == fn || !fits || !loaded || info.id < 1 || info.id >= c->slots ||
                info.id >= MCA_COLL_MODELTUNED_MAX_SLOTS) {
                opal_output_verbose(1, c->output,
                                    "coll:modeltuned:open: %s algorithm %s (%d): %s %s; it "
                                    "is never chosen",
                                    mca_coll_modeltuned_op_name(op), info.name, info.id,
                                    info.ompi_function,
                                    !loaded      ? "runs a component Open MPI did not load"
                                    : NULL == fn ? "not found in Open MPI's library"
                                                 : "has an unknown calling convention");
                continue;
            }
            const int direct = foreign ? mca_coll_modeltuned_foreign_direct(info.ompi_function) : 0;
            const int index = foreign ? mca_coll_modeltuned_foreign_index(info.component) : -1;
            c->algorithms[op][info.id] = (mca_coll_modeltuned_algorithm_t){fn,
                                                                           info.convention,
                                                                           info.name,
                                                                           0 != info.splits,
                                                                           (int8_t) direct,
                                                                           (int8_t) (1 + index)};
            c->runnable[op] |= 1u << info.id;
        }
    }
    return OMPI_SUCCESS;
}
