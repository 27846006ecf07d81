/* The interposed ompi_coll_base_* functions (interpose.c): what the last collective ran. */
#ifndef MODELTUNED_TEST_INTERPOSE_H
#define MODELTUNED_TEST_INTERPOSE_H

#include <stdbool.h>
#include <stdint.h>

struct interposed {
  bool on;          /* note calls */
  bool record_only; /* and do not run them (tuned's decision is all that is wanted) */
  int depth;        /* inside an interposed function: its own collectives are not noted */
  int calls, algorithm;
  uint32_t segsize;
  int fanout, max_requests;
  /* Where the algorithm that was noted ran: its frame, and the address it returns to (in the
   * function that called it: tuned's or modeltuned's). */
  const void *frame, *return_address;
};
extern struct interposed interposed;

#endif
