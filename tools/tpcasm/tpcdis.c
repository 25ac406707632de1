/* tpcdis: TPC disassembler. Usage: tpcdis in.bin  (prints one bundle per line in
 * the positional form, which tpcasm assembles back to identical bits). Exit 1 if
 * an illegal encoding was found. */
#include "tpcasm_lib.h"
#include <stdio.h>

int main(int argc, char **argv)
{
  FILE *f;
  uint8_t bytes[32];
  uint32_t k = 0;
  int bad = 0;
  if (argc != 2) {
    fprintf(stderr, "usage: tpcdis in.bin\n");
    return 2;
  }
  f = fopen(argv[1], "rb");
  if (!f) {
    fprintf(stderr, "tpcdis: cannot open %s\n", argv[1]);
    return 2;
  }
  while (fread(bytes, 1, 32, f) == 32) {
    tpc_bundle_t b;
    char t[1024];
    int s, j;
    for (s = 0; s < 4; s++) {
      b.w[s] = 0;
      for (j = 0; j < 8; j++)
        b.w[s] |= (uint64_t)bytes[8 * s + j] << (8 * j);
    }
    bad += tpcdis_bundle(&b, t, sizeof(t));
    printf("%s    # %u\n", t, k++);
  }
  fclose(f);
  return bad ? 1 : 0;
}
