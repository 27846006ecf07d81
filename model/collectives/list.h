/* The collectives the model decides: the one list, in C so that the C API (and through it the
 * component) derives from it as the C++ model does. The order is the C API's: MT_OP_<NAME> is a
 * collective's place, and its calling conventions MT_CALL_<NAME>* follow the order of the
 * collectives. Everything else in the model (Op and op_name, the families, the op names a
 * table's checks may carry and the table version they need) derives from these lists;
 * docs/design.md, "Adding a collective", says what a new one touches. */
#ifndef MODELTUNED_COLLECTIVES_LIST_H
#define MODELTUNED_COLLECTIVES_LIST_H

/* X(name, NAME, checks_version) per collective: Op::name, MT_OP_NAME, name_family(), and the
 * oldest calibration table version whose checks may carry it (docs/calibration-format.md). */
#define MT_COLLECTIVES(X)    \
  X(bcast, BCAST, 2)         \
  X(reduce, REDUCE, 2)       \
  X(allreduce, ALLREDUCE, 5) \
  X(barrier, BARRIER, 7)     \
  X(allgather, ALLGATHER, 8) \
  X(alltoall, ALLTOALL, 9)

/* X(name, NAME) per calling convention: how an algorithm's ompi_coll_base_* function takes its
 * parameters after the common ones (bcast: buf, count, dtype, root, comm, module; reduce: sbuf,
 * rbuf, count, dtype, op, root, comm, module): CallingConvention::name (model/registry) and
 * MT_CALL_NAME (the C API), numbered in this order from 0.
 * - bcast: nothing more
 * - bcast_segsize: uint32_t segsize
 * - bcast_segsize_fanout: uint32_t segsize, int fanout (chains) or radix (k-nomial)
 * - reduce: nothing more
 * - reduce_segsize_requests: uint32_t segsize, int max_outstanding_reqs
 * - reduce_segsize_fanout_requests: uint32_t segsize, int fanout, int max_outstanding_reqs
 * - reduce_segsize_requests_radix: uint32_t segsize, int max_outstanding_reqs, int radix (6.0's
 *   k-nomial)
 * - allreduce: nothing more (sbuf, rbuf, count, dtype, op, comm, module)
 * - allreduce_segsize: uint32_t segsize
 * - barrier: nothing (comm, module)
 * - allgather: nothing more (sbuf, scount, sdtype, rbuf, rcount, rdtype, comm, module)
 * - allgather_in_place: the same function called in place with the receive side's count and
 *   type, the own block copied into place first: sparbit sends `scount` elements of `rdtype`, so
 *   it is exact only so
 * - allgather_radix: int radix (6.0's k-radix Bruck)
 * - allgather_own_block: as allgather, but called in place with this rank's block of the receive
 *   buffer as the send side: 6.0's direct messaging sends the send side's count and type even in
 *   place, which MPI leaves undefined there
 * - alltoall: nothing more (sbuf, scount, sdtype, rbuf, rcount, rdtype, comm, module)
 * - alltoall_requests: int max_outstanding_reqs (0: every request at once)
 * - alltoall_one_layout: the same as alltoall, called with the receive side's type on both
 *   sides, the send blocks copied into that layout first where a rank's two types differ: 4.1's
 *   Bruck describes the blocks it receives with the send type, so it is exact only so */
#define MT_CALLING_CONVENTIONS(X)                                   \
  X(bcast, BCAST)                                                   \
  X(bcast_segsize, BCAST_SEGSIZE)                                   \
  X(bcast_segsize_fanout, BCAST_SEGSIZE_FANOUT)                     \
  X(reduce, REDUCE)                                                 \
  X(reduce_segsize_requests, REDUCE_SEGSIZE_REQUESTS)               \
  X(reduce_segsize_fanout_requests, REDUCE_SEGSIZE_FANOUT_REQUESTS) \
  X(reduce_segsize_requests_radix, REDUCE_SEGSIZE_REQUESTS_RADIX)   \
  X(allreduce, ALLREDUCE)                                           \
  X(allreduce_segsize, ALLREDUCE_SEGSIZE)                           \
  X(barrier, BARRIER)                                               \
  X(allgather, ALLGATHER)                                           \
  X(allgather_in_place, ALLGATHER_IN_PLACE)                         \
  X(allgather_radix, ALLGATHER_RADIX)                               \
  X(allgather_own_block, ALLGATHER_OWN_BLOCK)                       \
  X(alltoall, ALLTOALL)                                             \
  X(alltoall_requests, ALLTOALL_REQUESTS)                           \
  X(alltoall_one_layout, ALLTOALL_ONE_LAYOUT)

#endif /* MODELTUNED_COLLECTIVES_LIST_H */
