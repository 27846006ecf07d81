/*
 * C side of the hot-path benchmark: a module whose decisions are cached, and the exact inline
 * lookup the component's bcast runs on every call (mca_coll_modeltuned_choice).
 */
#include "ompi_config.h"

#include <stdlib.h>

#include "mca/coll/modeltuned/coll_modeltuned.h"

void *bench_lookup_module(int classes_filled)
{
    mca_coll_modeltuned_module_t *m = calloc(1, sizeof *m);
    m->state = MCA_COLL_MODELTUNED_READY;
    for (int k = 0; k < MCA_COLL_MODELTUNED_SIZE_CLASSES; ++k) {
        m->choices[MT_OP_BCAST][1][k].root = k < classes_filled ? 0 : -1;
        m->choices[MT_OP_BCAST][1][k].decision.algorithm = 1 + k % 6;
    }
    return m;
}

/* What mca_coll_modeltuned_bcast does before dispatching: size class, cached choice. */
int bench_lookup(void *module, size_t count, size_t type_size, int root)
{
    const mt_decision *d = mca_coll_modeltuned_choice((mca_coll_modeltuned_module_t *) module,
                                                      NULL, MT_OP_BCAST, 1, count, type_size, root);
    return d->algorithm;
}
