// The algorithms of Open MPI's collective components other than tuned, as candidates beside
// tuned's: each runs that component's own function for the collective, which modeltuned reaches on
// a private communicator where the component sits on top (docs/design.md, "Other components").
// The model has no family for them yet: they are measured only (registry.hpp), and leave Open
// MPI's default only where the table's checks measured them faster. Sources read: 4.1.4's and
// 5.0.7's coll/sm and coll/adapt, 6.0.0rc2's coll/xhc and coll/acoll.
#include "model/collectives/family.hpp"

// Specs name only the fields that differ from their defaults; GCC would warn about the others.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace modeltuned {
namespace {

using CC = CallingConvention;

constexpr int kSm = kFirstComponentId, kAdapt = kFirstComponentId + 1, kXhc = kFirstComponentId + 2,
              kAcoll = kFirstComponentId + 3;

bool one_node(const Placement &placement) {
  for (const RankPlace &r : placement.ranks())
    if (r.node != placement.ranks().front().node) return false;
  return true;
}

// coll/sm: its comm_query declines a communicator with a rank on another node.
bool sm_serves(const CallShape &, const Placement &placement) { return one_node(placement); }
// Its reduce hands an element larger than a control block (coll_sm_control_size, 4096 B) to the
// component below (coll_sm_reduce.c), and its allreduce is that reduce and its bcast.
bool sm_reduction_serves(const CallShape &call, const Placement &placement) {
  return call.type_size <= 4096 && one_node(placement);
}

// coll/xhc (6.0): one node. Its reduce serves root 0 only (other roots go to the component below
// with a warning, coll_xhc_reduce.c). Above its copy-in-copy-out limit (cico_max, 4096 B) its
// reductions need the single-copy mechanism to map peers' memory (smsc's CAN_MAP: xpmem, knem),
// which Debian's Open MPI lacks: smsc/cma leaves map_peer_region NULL and the call jumps to it
// (a segmentation fault, checked under 6.0.0rc2): they serve up to cico_max only.
constexpr size_t kXhcCicoMax = 4096;
bool xhc_serves(const CallShape &, const Placement &placement) { return one_node(placement); }
bool xhc_reduction_serves(const CallShape &call, const Placement &placement) {
  return call.bytes() <= kXhcCicoMax && (call.op != Op::reduce || call.root == 0) && one_node(placement);
}

// coll/acoll (6.0): its comm_query declines a communicator of fewer ranks than its
// comm_size_thresh (16 by default). Its reduce hands roots other than 0 to the base binomial tree
// (coll_acoll_reduce.c), which is tuned's candidate already, and its reductions hand a
// non-commutative operation to order-keeping base algorithms.
constexpr int kAcollCommSizeThresh = 16;
bool acoll_serves(const CallShape &, const Placement &placement) {
  return static_cast<int>(placement.ranks().size()) >= kAcollCommSizeThresh;
}
bool acoll_reduce_serves(const CallShape &call, const Placement &placement) {
  return call.root == 0 && acoll_serves(call, placement);
}

const AlgorithmSpec kComponents[] = {
    // coll/sm (4.1, 5.0; 6.0 has none): a shared-memory segment per communicator, made at its first
    // call, and a tree of fan-out 4 (coll_sm_tree_degree) through it in fragments of 8 KiB; the
    // reduction combines in rank order.
    {.op = Op::bcast,
     .id = kSm,
     .name = "sm",
     .description = "coll/sm: copied through a shared-memory segment down a tree of fan-out 4, in 8 KiB fragments",
     // Its fragments are bytes of the packed message (a convertor per rank), so ranks whose
     // datatypes differ under one signature cut alike: no byte view needed.
     .ompi_function = "mca_coll_modeltuned_sm_bcast",
     .convention = CC::bcast,
     .until = OmpiVersion::v5_0,
     .component = "sm",
     .serves = sm_serves,
     .serves_only = "ranks on one node"},
    {.op = Op::reduce,
     .id = kSm,
     .name = "sm",
     .description = "coll/sm: combined in rank order up a shared-memory tree, in 8 KiB fragments",
     .order_preserving = true,
     .splits = true,
     .ompi_function = "mca_coll_modeltuned_sm_reduce",
     .convention = CC::reduce,
     .until = OmpiVersion::v5_0,
     .component = "sm",
     .serves = sm_reduction_serves,
     .serves_only = "ranks on one node, elements up to 4 KiB"},
    {.op = Op::allreduce,
     .id = kSm,
     .name = "sm",
     .description = "coll/sm: its reduce to rank 0, then its bcast",
     .order_preserving = true,
     .splits = true,
     .ompi_function = "mca_coll_modeltuned_sm_allreduce",
     .convention = CC::allreduce,
     .until = OmpiVersion::v5_0,
     .component = "sm",
     .serves = sm_reduction_serves,
     .serves_only = "ranks on one node, elements up to 4 KiB"},
    {.op = Op::barrier,
     .id = kSm,
     .name = "sm",
     .description = "coll/sm: flags in a shared-memory segment, up and down a tree of fan-out 4",
     .ompi_function = "mca_coll_modeltuned_sm_barrier",
     .convention = CC::barrier,
     .until = OmpiVersion::v5_0,
     .component = "sm",
     .serves = sm_serves,
     .serves_only = "ranks on one node"},
    // coll/adapt (4.1 to 6.0): event-driven trees over point-to-point messages with several requests
    // in flight (its default: binomial, segments of 160 KiB for reduce); its reduce hands a
    // non-commutative operation to the component below.
    {.op = Op::bcast,
     .id = kAdapt,
     .name = "adapt",
     .description = "coll/adapt: an event-driven binomial tree, segments sent as their parents receive them",
     .splits = true,
     .ompi_function = "mca_coll_modeltuned_adapt_bcast",
     .convention = CC::bcast,
     .component = "adapt"},
    {.op = Op::reduce,
     .id = kAdapt,
     .name = "adapt",
     .description = "coll/adapt: an event-driven binomial tree, segments combined as they arrive",
     .splits = true,
     .ompi_function = "mca_coll_modeltuned_adapt_reduce",
     .convention = CC::reduce,
     .component = "adapt"},
    // coll/xhc (6.0): hierarchical shared memory (by default NUMA node, then socket; reductions L3
    // first), copy-in-copy-out below its cico_max and single-copy above it; its reductions combine
    // in an order of their own.
    {.op = Op::bcast,
     .id = kXhc,
     .name = "xhc",
     .description = "coll/xhc: down its NUMA and socket hierarchy through shared memory",
     .splits = true,
     .ompi_function = "mca_coll_modeltuned_xhc_bcast",
     .convention = CC::bcast,
     .since = OmpiVersion::v6_0,
     .component = "xhc",
     .serves = xhc_serves,
     .serves_only = "ranks on one node"},
    {.op = Op::reduce,
     .id = kXhc,
     .name = "xhc",
     .description = "coll/xhc: up its L3, NUMA and socket hierarchy through shared memory",
     .splits = true,
     .ompi_function = "mca_coll_modeltuned_xhc_reduce",
     .convention = CC::reduce,
     .since = OmpiVersion::v6_0,
     .component = "xhc",
     .serves = xhc_reduction_serves,
     .serves_only = "ranks on one node, root 0, messages up to 4 KiB (its cico_max)"},
    {.op = Op::allreduce,
     .id = kXhc,
     .name = "xhc",
     .description = "coll/xhc: up its L3, NUMA and socket hierarchy, the result read by every rank",
     .splits = true,
     .ompi_function = "mca_coll_modeltuned_xhc_allreduce",
     .convention = CC::allreduce,
     .since = OmpiVersion::v6_0,
     .component = "xhc",
     .serves = xhc_reduction_serves,
     .serves_only = "ranks on one node, messages up to 4 KiB (its cico_max)"},
    {.op = Op::barrier,
     .id = kXhc,
     .name = "xhc",
     .description = "coll/xhc: flags up and down its NUMA and socket hierarchy",
     .ompi_function = "mca_coll_modeltuned_xhc_barrier",
     .convention = CC::barrier,
     .since = OmpiVersion::v6_0,
     .component = "xhc",
     .serves = xhc_serves,
     .serves_only = "ranks on one node"},
    // coll/acoll (6.0): AMD's collectives over subcommunicators of the node, socket, NUMA node and
    // L3 (its subgroups of 8 ranks), through shared memory where the datatype is predefined, and
    // base algorithms of its own choice elsewhere; it makes its subcommunicators at its first call.
    {.op = Op::bcast,
     .id = kAcoll,
     .name = "acoll",
     .description = "coll/acoll: linear or binomial across and within its subgroups, or shared memory",
     .splits = true,
     .ompi_function = "mca_coll_modeltuned_acoll_bcast",
     .convention = CC::bcast,
     .since = OmpiVersion::v6_0,
     .component = "acoll",
     .serves = acoll_serves,
     .serves_only = "communicators of 16 ranks or more (its comm_size_thresh)"},
    {.op = Op::reduce,
     .id = kAcoll,
     .name = "acoll",
     .description = "coll/acoll: up its subgroups through shared memory, or a base tree of its choice",
     .splits = true,
     .ompi_function = "mca_coll_modeltuned_acoll_reduce",
     .convention = CC::reduce,
     .since = OmpiVersion::v6_0,
     .component = "acoll",
     .serves = acoll_reduce_serves,
     .serves_only = "communicators of 16 ranks or more (its comm_size_thresh), root 0"},
    {.op = Op::allreduce,
     .id = kAcoll,
     .name = "acoll",
     .description = "coll/acoll: through shared memory within its subgroups, or a base algorithm of its choice",
     .splits = true,
     .ompi_function = "mca_coll_modeltuned_acoll_allreduce",
     .convention = CC::allreduce,
     .since = OmpiVersion::v6_0,
     .component = "acoll",
     .serves = acoll_serves,
     .serves_only = "communicators of 16 ranks or more (its comm_size_thresh)"},
    {.op = Op::barrier,
     .id = kAcoll,
     .name = "acoll",
     .description = "coll/acoll: flags in shared memory, up and down its subgroups",
     .ompi_function = "mca_coll_modeltuned_acoll_barrier",
     .convention = CC::barrier,
     .since = OmpiVersion::v6_0,
     .component = "acoll",
     .serves = acoll_serves,
     .serves_only = "communicators of 16 ranks or more (its comm_size_thresh)"},
    {.op = Op::allgather,
     .id = kAcoll,
     .name = "acoll",
     .description = "coll/acoll: gathered within its subgroups, exchanged between them, then broadcast",
     .splits = true,
     .ompi_function = "mca_coll_modeltuned_acoll_allgather",
     .convention = CC::allgather,
     .since = OmpiVersion::v6_0,
     .component = "acoll",
     .serves = acoll_serves,
     .serves_only = "communicators of 16 ranks or more (its comm_size_thresh)"},
    {.op = Op::alltoall,
     .id = kAcoll,
     .name = "acoll",
     .description = "coll/acoll: split into groups that gather, exchange and scatter, or a base algorithm",
     .splits = true,
     .ompi_function = "mca_coll_modeltuned_acoll_alltoall",
     .convention = CC::alltoall,
     .since = OmpiVersion::v6_0,
     .component = "acoll",
     .serves = acoll_serves,
     .serves_only = "communicators of 16 ranks or more (its comm_size_thresh)"},
};

}  // namespace

std::span<const AlgorithmSpec> component_algorithms() { return kComponents; }

}  // namespace modeltuned
