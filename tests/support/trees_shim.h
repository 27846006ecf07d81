/* C view of modeltuned's trees (model/schedule/ompi_trees.hpp) for the Check tests. */
#ifndef MODELTUNED_TESTS_TREES_SHIM_H
#define MODELTUNED_TESTS_TREES_SHIM_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum mt_tree_kind {
  MT_KARY,             /* arg = fanout */
  MT_IN_ORDER_BINTREE, /* arg and root ignored: the root is size-1 */
  MT_BMTREE,
  MT_IN_ORDER_BMTREE,
  MT_KMTREE, /* arg = radix */
  MT_CHAIN   /* arg = fanout */
};

typedef struct mt_tree mt_tree;

/* The Open MPI major version whose builders ours follow (4 or 5; 4 until called): the libmpi the
 * test links. */
void mt_tree_set_ompi_major(int major);
/* NULL when the builder rejects its input; the builder's message is copied into err. */
mt_tree *mt_tree_build(enum mt_tree_kind kind, int arg, int size, int root, char *err, size_t errlen);
void mt_tree_free(mt_tree *tree);
int mt_tree_root(const mt_tree *tree);
int mt_tree_parent(const mt_tree *tree, int rank);
int mt_tree_nchildren(const mt_tree *tree, int rank);
int mt_tree_child(const mt_tree *tree, int rank, int i);
/* depths() of the tree; -1 everywhere if depths() threw (message in mt_tree_depth_error). */
int mt_tree_depth(const mt_tree *tree, int rank);
const char *mt_tree_depth_error(const mt_tree *tree);

#ifdef __cplusplus
}
#endif
#endif
