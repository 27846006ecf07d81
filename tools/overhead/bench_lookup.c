/*
 * C side of the hot-path benchmark: a module whose decisions are cached, and the exact inline
 * lookup the component's bcast runs on every call (mca_coll_modeltuned_lookup).
 */
#include "ompi_config.h"

#include <stdlib.h>
#include <string.h>

#include "mca/coll/modeltuned/coll_modeltuned_call.h"

void *bench_lookup_module(int classes_filled) {
  mca_coll_modeltuned_module_t *m = calloc(1, sizeof *m);
  m->state = MCA_COLL_MODELTUNED_READY;
  memset(m->ready, 0xff, sizeof m->ready); /* calloc cleared every row */
  mca_coll_modeltuned_slot_t *row = m->rows[MCA_COLL_MODELTUNED_KIND_BCAST].slots;
  for (int k = 0; k < MCA_COLL_MODELTUNED_SIZE_CLASSES; ++k) {
    row[k].key = k < classes_filled ? 1 : 0; /* root 0 */
    row[k].decision.algorithm = 1 + k % 6;
  }
  return m;
}

/* A module with a real model of `nranks` ranks mapped by core on two ORFEO EPYC nodes, so that a
 * cache miss runs the model as in the component. */
void *bench_lookup_module_with_model(const char *table_path, int nranks) {
  char err[256];
  mt_table *table = mt_table_load(table_path, err, sizeof err);
  if (NULL == table) return NULL;
  mt_place *places = calloc(nranks, sizeof *places);
  for (int r = 0; r < nranks; ++r) {
    int core = r % 256;
    places[r] = (mt_place){core / 128, (core / 64) % 2, (core / 16) % 8, core / 4, core};
  }
  mca_coll_modeltuned_module_t *m = calloc(1, sizeof *m); /* nothing decided: every slot empty */
  m->state = MCA_COLL_MODELTUNED_READY;
  memset(m->ready, 0xff, sizeof m->ready); /* calloc cleared every row */
  const uint32_t all[MT_OPS] = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
  m->model = mt_comm_model_create(table, nranks, places, all, 0, err, sizeof err);
  free(places);
  return m->model ? m : NULL;
}

/* What bcast's entry point does before dispatching: size class, cached decision. */
int bench_lookup(void *module, size_t count, size_t type_size, int root) {
  const mca_coll_modeltuned_decision_t *d = mca_coll_modeltuned_lookup(
      (mca_coll_modeltuned_module_t *)module, NULL, MCA_COLL_MODELTUNED_KIND_BCAST, count, type_size, root);
  return NULL == d ? 0 : d->algorithm;
}
