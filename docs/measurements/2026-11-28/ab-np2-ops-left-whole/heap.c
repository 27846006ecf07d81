#include <malloc.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>
static long status_kb(const char *key) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long v = -1;
  while (fgets(line, sizeof line, f))
    if (!strncmp(line, key, strlen(key))) sscanf(line + strlen(key), "%ld", &v);
  fclose(f);
  return v;
}
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  char b[64];
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  for (int i = 0; i < 100; ++i) MPI_Bcast(b, 64, MPI_BYTE, 0, MPI_COMM_WORLD);
  struct mallinfo2 mi = mallinfo2();
  if (r == 0)
    printf("heap in use %zu KB, arena %zu KB, mmapped %zu KB, VmRSS %ld KB, VmData %ld KB\n", mi.uordblks >> 10,
           mi.arena >> 10, mi.hblkhd >> 10, status_kb("VmRSS:"), status_kb("VmData:"));
  MPI_Finalize();
}
