/* Message buffers the MPI test programs reuse from call to call.
 *
 * AddressSanitizer's allocator maps every allocation above 128 KiB afresh and unmaps it on free,
 * so a buffer allocated per call costs the sanitizer build a page fault per page touched on every
 * call (tests/sanitizers/README.md). A slot keeps its largest allocation instead. Under
 * AddressSanitizer, the bytes past the n asked for are poisoned: an access beyond them is
 * reported, as at the end of a fresh allocation. */
#ifndef MODELTUNED_TEST_BUFFER_H
#define MODELTUNED_TEST_BUFFER_H

#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define TEST_BUFFER_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define TEST_BUFFER_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define TEST_BUFFER_POISON(p, n) ((void)(p), (void)(n))
#define TEST_BUFFER_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

/* Buffers live at once in one test function: each takes its own slot. */
enum { TEST_BUFFER_SLOTS = 6 };

/* n bytes (uninitialised) in slot `slot`, valid until that slot is asked for again. */
static inline void *test_buffer(int slot, size_t n) {
  static struct {
    unsigned char *p;
    size_t capacity;
  } slots[TEST_BUFFER_SLOTS];
  if (slot < 0 || slot >= TEST_BUFFER_SLOTS) {
    fprintf(stderr, "test_buffer: no slot %d (there are %d)\n", slot, TEST_BUFFER_SLOTS);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  if (NULL == slots[slot].p || n > slots[slot].capacity) {
    TEST_BUFFER_UNPOISON(slots[slot].p, slots[slot].capacity);
    free(slots[slot].p);
    slots[slot].capacity = n > 0 ? n : 1;
    slots[slot].p = malloc(slots[slot].capacity);
    if (NULL == slots[slot].p) {
      fprintf(stderr, "test_buffer: out of memory allocating %zu bytes\n", n);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }
  TEST_BUFFER_UNPOISON(slots[slot].p, n);
  TEST_BUFFER_POISON(slots[slot].p + n, slots[slot].capacity - n);
  return slots[slot].p;
}

#endif
