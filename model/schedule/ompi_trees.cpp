// Open MPI 4.1.4 builds each tree from one rank's point of view (ompi/mca/coll/base/coll_base_topo.c).
// Every builder here runs that same per-rank logic for all ranks in turn, so parent[r] and
// children[r] are exactly tree_prev and tree_next[] of rank r, quirks included; only the root's
// tree_prev (root itself, -1 or MPI_PROC_NULL depending on the builder) is normalised to -1.
// 64-bit intermediates keep the power/mask arithmetic from overflowing where Open MPI's int would
// not either (any realistic communicator size).
#include "model/schedule/ompi_trees.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace modeltuned {
namespace {

constexpr int kMaxTreeFanout = 32;  // MAXTREEFANOUT, coll_base_topo.h

void check_size_and_root(const char *builder, int size, int root) {
  if (size < 1)
    throw std::invalid_argument(std::string(builder) + ": communicator size " + std::to_string(size) +
                                " is invalid; pass a size >= 1");
  if (root < 0 || root >= size)
    throw std::invalid_argument(std::string(builder) + ": root " + std::to_string(root) +
                                " is outside the communicator of size " + std::to_string(size) +
                                "; pass 0 <= root < size");
}

Tree empty_tree(int size, int root) {
  Tree tree;
  tree.root = root;
  tree.parent.assign(size, -1);
  tree.children.assign(size, {});
  return tree;
}

int unshift(int64_t shifted, int root, int size) { return static_cast<int>((shifted + root) % size); }

}  // namespace

Tree build_kary_tree(int fanout, int size, int root, OmpiVersion ompi) {
  check_size_and_root("build_kary_tree", size, root);
  // Open MPI returns NULL for these fan-outs.
  if (fanout < 1 || fanout > kMaxTreeFanout)
    throw std::invalid_argument("build_kary_tree: fanout " + std::to_string(fanout) +
                                " is rejected by Open MPI; pass 1 <= fanout <= 32");
  // calculate_num_nodes_up_to_level divides by fanout-1: Open MPI 4.1 dies of SIGFPE for fanout 1
  // on 3+ ranks (2 ranks happen to survive the undefined behaviour). No Open MPI caller uses it.
  // 5.0 returns `level` there, and the loops below then give its pipeline s -> s+1.
  if (fanout == 1 && size >= 2 && ompi == OmpiVersion::v4_1)
    throw std::invalid_argument(
        "build_kary_tree: fanout 1 divides by zero in Open MPI's "
        "ompi_coll_base_topo_build_tree; use build_chain(1, size, root) "
        "for a pipeline");
  Tree tree = empty_tree(size, root);
  if (size < 2) return tree;
  for (int rank = 0; rank < size; ++rank) {
    const int64_t shifted = (rank - root + size) % size;
    // calculate_level: the level is the first whose cumulative node count exceeds shifted.
    int64_t nodes_through_level = 0, level_width = 1, delta = 1;
    while (nodes_through_level <= shifted) {
      delta = level_width;
      nodes_through_level += level_width;
      level_width *= fanout;
    }
    const int64_t nodes_above_level = nodes_through_level - delta;  // calculate_num_nodes_up_to_level

    for (int i = 0; i < fanout; ++i) {
      const int64_t child = shifted + delta * (i + 1);
      if (child >= size) break;
      tree.children[rank].push_back(unshift(child, root, size));
    }
    if (shifted == 0) continue;  // Open MPI: tree_prev = root
    int64_t sparent = shifted;
    if (sparent < fanout) {
      sparent = 0;
    } else {
      while (sparent >= nodes_above_level) sparent -= delta / fanout;
    }
    tree.parent[rank] = unshift(sparent, root, size);
  }
  return tree;
}

Tree build_in_order_bintree(int size) {
  check_size_and_root("build_in_order_bintree", size, size - 1);
  Tree tree = empty_tree(size, size - 1);
  for (int rank = 0; rank < size; ++rank) {
    // Descend from the whole range towards rank, exactly like the per-rank loop in Open MPI.
    int subtree_size = size, myrank = rank, parent = size - 1, delta = 0;
    while (true) {
      const int rightsize = subtree_size >> 1;
      int lchild = -1, rchild = -1;
      if (subtree_size - 1 > 0) {
        lchild = parent - 1;
        if (lchild > 0) rchild = rightsize - 1;
      }
      if (myrank == parent) {
        if (lchild >= 0) tree.children[rank].push_back(lchild + delta);
        if (rchild >= 0) tree.children[rank].push_back(rchild + delta);
        break;
      }
      if (myrank > rchild) {  // left subtree
        if (myrank == lchild) tree.parent[rank] = parent + delta;
        subtree_size = subtree_size - rightsize - 1;
        delta += rightsize;
        myrank -= rightsize;
        parent = subtree_size - 1;
      } else {  // right subtree
        if (myrank == rchild) tree.parent[rank] = parent + delta;
        subtree_size = rightsize;
        parent = rchild;
      }
    }
  }
  return tree;
}

Tree build_bmtree(int size, int root) {
  check_size_and_root("build_bmtree", size, root);
  Tree tree = empty_tree(size, root);
  for (int rank = 0; rank < size; ++rank) {
    const int64_t index = (rank - root + size) % size;
    int64_t mask = 1;  // opal_next_poweroftwo: smallest power of two strictly above index
    while (mask <= index) mask <<= 1;
    if (index != 0) tree.parent[rank] = unshift(index ^ (mask >> 1), root, size);
    // Children in increasing distance: index+mask, index+2*mask, ... (the last one is farthest).
    for (; mask < size; mask <<= 1) {
      const int64_t remote = index ^ mask;
      if (remote >= size) break;
      tree.children[rank].push_back(unshift(remote, root, size));
    }
  }
  return tree;
}

Tree build_in_order_bmtree(int size, int root) {
  check_size_and_root("build_in_order_bmtree", size, root);
  Tree tree = empty_tree(size, root);
  for (int rank = 0; rank < size; ++rank) {
    const int64_t vrank = (rank - root + size) % size;
    for (int64_t mask = 1; mask < size; mask <<= 1) {
      const int64_t remote = vrank ^ mask;
      if (remote < vrank) {
        tree.parent[rank] = unshift(remote, root, size);
        break;
      }
      if (remote < size) tree.children[rank].push_back(unshift(remote, root, size));
    }
  }
  return tree;
}

Tree build_kmtree(int size, int root, int radix) {
  check_size_and_root("build_kmtree", size, root);
  // Open MPI loops forever (radix 1) or divides by zero (radix 0) here.
  if (radix < 2)
    throw std::invalid_argument("build_kmtree: radix " + std::to_string(radix) +
                                " is invalid in Open MPI's ompi_coll_base_topo_build_kmtree; pass radix >= 2");
  Tree tree = empty_tree(size, root);
  for (int rank = 0; rank < size; ++rank) {
    const int64_t vrank = (rank - root + size) % size;
    int64_t mask = 1;
    for (; mask < size; mask *= radix) {
      if (vrank % (radix * mask)) {
        tree.parent[rank] = unshift(vrank / (radix * mask) * (radix * mask), root, size);
        break;
      }
    }
    // Children from the farthest (largest mask) to the nearest; within a mask by increasing r.
    for (mask /= radix; mask > 0; mask /= radix) {
      for (int r = 1; r < radix; ++r) {
        const int64_t child = vrank + mask * r;
        if (child < size) tree.children[rank].push_back(unshift(child, root, size));
      }
    }
  }
  return tree;
}

Tree build_chain(int fanout, int size, int root) {
  check_size_and_root("build_chain", size, root);
  // Open MPI clamps instead of failing.
  if (fanout < 1) fanout = 1;
  if (fanout > kMaxTreeFanout) fanout = kMaxTreeFanout;
  if (size - 1 < fanout) fanout = size - 1;
  Tree tree = empty_tree(size, root);
  if (fanout == 1) {  // pipeline: shifted rank s receives from s-1, sends to s+1
    for (int srank = 0; srank < size; ++srank) {
      const int rank = unshift(srank, root, size);
      if (srank != 0) tree.parent[rank] = unshift(srank - 1, root, size);
      if (srank + 1 < size) tree.children[rank].push_back(unshift(srank + 1, root, size));
    }
    return tree;
  }
  if (size == 1) return tree;

  // The size-1 non-root ranks are cut into `fanout` consecutive chains; the first `mark` chains
  // get one rank more when they do not divide evenly (mark = fanout+1 means all are equal).
  int maxchainlen = (size - 1) / fanout, mark;
  if ((size - 1) % fanout != 0) {
    ++maxchainlen;
    mark = (size - 1) % fanout;
  } else {
    mark = fanout + 1;
  }
  for (int srank = 1; srank < size; ++srank) {
    int head, len;
    if (srank - 1 < mark * maxchainlen) {
      const int column = (srank - 1) / maxchainlen;
      head = 1 + column * maxchainlen;
      len = maxchainlen;
    } else {
      const int column = mark + (srank - 1 - mark * maxchainlen) / (maxchainlen - 1);
      head = mark * maxchainlen + 1 + (column - mark) * (maxchainlen - 1);
      len = maxchainlen - 1;
    }
    const int rank = unshift(srank, root, size);
    tree.parent[rank] = unshift(srank == head ? 0 : srank - 1, root, size);
    if (srank != head + len - 1 && srank + 1 < size) tree.children[rank].push_back(unshift(srank + 1, root, size));
  }
  // The root's list, computed incrementally from chain head to chain head as Open MPI does.
  int next = (root + 1) % size;
  tree.children[root].push_back(next);
  for (int i = 1; i < fanout; ++i) {
    next += maxchainlen;
    if (i > mark) --next;
    next %= size;
    tree.children[root].push_back(next);
  }
  return tree;
}

std::vector<int> depths(const Tree &tree) {
  const int size = tree.size();
  std::vector<int> depth(size, -1);
  if (size == 0) return depth;
  if (tree.root < 0 || tree.root >= size || static_cast<int>(tree.children.size()) != size)
    throw std::invalid_argument("depths: tree with root " + std::to_string(tree.root) + " and " + std::to_string(size) +
                                " ranks is malformed; build it with build_*");
  // Breadth-first from the root through children[]; the visit list doubles as the queue.
  std::vector<int> order{tree.root};
  order.reserve(size);
  depth[tree.root] = 0;
  for (size_t head = 0; head < order.size(); ++head) {
    const int rank = order[head];
    for (int child : tree.children[rank]) {
      if (child < 0 || child >= size || depth[child] != -1)
        throw std::invalid_argument("depths: rank " + std::to_string(rank) + " lists child " + std::to_string(child) +
                                    " that is out of range or reached twice; "
                                    "the tree is not a tree");
      depth[child] = depth[rank] + 1;
      order.push_back(child);
    }
  }
  if (static_cast<int>(order.size()) != size)
    throw std::invalid_argument("depths: only " + std::to_string(order.size()) + " of " + std::to_string(size) +
                                " ranks are reachable from root " + std::to_string(tree.root) +
                                "; the tree is not spanning");
  return depth;
}

}  // namespace modeltuned
