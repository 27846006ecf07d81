// extern "C" bridge so the C Check test (which needs Open MPI's C headers) can walk our trees.
#include "tests/support/trees_shim.h"

#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>

#include "model/schedule/ompi_trees.hpp"

struct mt_tree {
  modeltuned::Tree tree;
  std::vector<int> depth;
  std::string depth_error;
};

namespace {
modeltuned::OmpiVersion ompi = modeltuned::OmpiVersion::v4_1;

modeltuned::Tree build(mt_tree_kind kind, int arg, int size, int root) {
  switch (kind) {
    case MT_KARY:
      return modeltuned::build_kary_tree(arg, size, root, ompi);
    case MT_IN_ORDER_BINTREE:
      return modeltuned::build_in_order_bintree(size);
    case MT_BMTREE:
      return modeltuned::build_bmtree(size, root);
    case MT_IN_ORDER_BMTREE:
      return modeltuned::build_in_order_bmtree(size, root);
    case MT_KMTREE:
      return modeltuned::build_kmtree(size, root, arg);
    case MT_CHAIN:
      return modeltuned::build_chain(arg, size, root);
  }
  throw std::invalid_argument("trees_shim: unknown tree kind " + std::to_string(kind));
}
}  // namespace

extern "C" {

void mt_tree_set_ompi_major(int major) {
  ompi = major >= 5 ? modeltuned::OmpiVersion::v5_0 : modeltuned::OmpiVersion::v4_1;
}

mt_tree *mt_tree_build(mt_tree_kind kind, int arg, int size, int root, char *err, size_t errlen) {
  try {
    auto *result = new mt_tree{build(kind, arg, size, root), {}, {}};
    try {
      result->depth = modeltuned::depths(result->tree);
    } catch (const std::exception &e) {
      result->depth.assign(size, -1);
      result->depth_error = e.what();
    }
    return result;
  } catch (const std::exception &e) {
    if (err && errlen) {
      std::strncpy(err, e.what(), errlen - 1);
      err[errlen - 1] = '\0';
    }
    return nullptr;
  }
}

void mt_tree_free(mt_tree *tree) { delete tree; }
int mt_tree_root(const mt_tree *tree) { return tree->tree.root; }
int mt_tree_parent(const mt_tree *tree, int rank) { return tree->tree.parent.at(rank); }
int mt_tree_nchildren(const mt_tree *tree, int rank) { return static_cast<int>(tree->tree.children.at(rank).size()); }
int mt_tree_child(const mt_tree *tree, int rank, int i) { return tree->tree.children.at(rank).at(i); }
int mt_tree_depth(const mt_tree *tree, int rank) { return tree->depth.at(rank); }
const char *mt_tree_depth_error(const mt_tree *tree) {
  return tree->depth_error.empty() ? nullptr : tree->depth_error.c_str();
}

}  // extern "C"
