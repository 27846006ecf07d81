/* Where the application's large buffers come from after MPI_Init: for each size, whether glibc
 * serves a malloc of it with mmap (its count of mmapped blocks grows) or from the heap. A component
 * that frees a large block during MPI_Init raises glibc's mmap threshold and moves the
 * application's buffers onto the heap; check_mpi compares this line with and without modeltuned.
 * Output (rank 0): "heap_state: 160K mmap 512K mmap 1M mmap". */
#include <malloc.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  const size_t sizes[] = {160 << 10, 512 << 10, 1 << 20};
  const char *labels[] = {"160K", "512K", "1M"};
  int rank = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    printf("heap_state:");
    for (int i = 0; i < 3; ++i) {
      const size_t before = mallinfo2().hblks;
      void *volatile block = malloc(sizes[i]); /* volatile: the compiler may not drop the pair */
      const size_t after = mallinfo2().hblks;
      printf(" %s %s", labels[i], after > before ? "mmap" : "heap");
      free(block);
    }
    printf("\n");
  }
  MPI_Finalize();
  return 0;
}
