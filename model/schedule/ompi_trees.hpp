// Communication trees exactly as Open MPI 4.1 and 5.0 build them (ompi/mca/coll/base/coll_base_topo.c).
// A Tree holds the whole communicator's view at once: for every rank its parent and its
// children in the order Open MPI's tree_next[] lists them (the order sends are posted).
#pragma once
#include <vector>

#include "model/schedule/ompi_version.hpp"

namespace modeltuned {

struct Tree {
  int root = 0;
  std::vector<int> parent;                 // parent[r]; -1 for the root (bmtree: see below)
  std::vector<std::vector<int>> children;  // children[r] in Open MPI's tree_next order
  int size() const { return static_cast<int>(parent.size()); }
};

// ompi_coll_base_topo_build_tree: k-ary tree (binary tree for fanout 2), ranks shifted by root.
// Fan-out 1 on 2+ ranks: a pipeline in 5.0; 4.1 divides by zero, so it is rejected there.
Tree build_kary_tree(int fanout, int size, int root, OmpiVersion ompi = OmpiVersion::v4_1);
// ompi_coll_base_topo_build_in_order_bintree: root is always size-1.
Tree build_in_order_bintree(int size);
// ompi_coll_base_topo_build_bmtree: binomial tree. Open MPI sets tree_prev of the root to
// itself; here parent[root] is -1 like every other tree.
Tree build_bmtree(int size, int root);
// ompi_coll_base_topo_build_in_order_bmtree.
Tree build_in_order_bmtree(int size, int root);
// ompi_coll_base_topo_build_kmtree: k-nomial tree of the given radix.
Tree build_kmtree(int size, int root, int radix);
// ompi_coll_base_topo_build_chain: `fanout` chains hanging off the root (pipeline: fanout 1).
Tree build_chain(int fanout, int size, int root);

// Depth of each rank (root 0).
std::vector<int> depths(const Tree &tree);

}  // namespace modeltuned
