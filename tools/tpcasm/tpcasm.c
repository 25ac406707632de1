/* tpcasm: TPC assembler. Usage: tpcasm [-D NAME=VALUE]... [-l] in.tasm -o out.bin
 * -l prints a listing (bundle number, disassembly) to stdout. */
#include "tpcasm_lib.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
  const char *in = NULL, *outp = NULL;
  tpcasm_def_t defs[64];
  int nd = 0, list = 0, i;
  tpc_bundle_t *b;
  uint32_t n, k;
  char err[512];
  FILE *f;
  for (i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-o") && i + 1 < argc) {
      outp = argv[++i];
    } else if (!strncmp(argv[i], "-D", 2) && nd < 64) {
      char *d = argv[i][2] ? argv[i] + 2 : (i + 1 < argc ? argv[++i] : NULL), *eq;
      if (!d || !(eq = strchr(d, '='))) {
        fprintf(stderr, "tpcasm: -D needs NAME=VALUE\n");
        return 2;
      }
      *eq = 0;
      defs[nd].name = d;
      defs[nd].value = strtoll(eq + 1, NULL, 0);
      nd++;
    } else if (!strcmp(argv[i], "-l")) {
      list = 1;
    } else if (argv[i][0] != '-' && !in) {
      in = argv[i];
    } else {
      fprintf(stderr, "usage: tpcasm [-D NAME=VALUE]... [-l] in.tasm -o out.bin\n");
      return 2;
    }
  }
  if (!in || (!outp && !list)) {
    fprintf(stderr, "usage: tpcasm [-D NAME=VALUE]... [-l] in.tasm -o out.bin\n");
    return 2;
  }
  if (tpcasm_assemble_file(in, defs, nd, &b, &n, err, sizeof(err))) {
    fprintf(stderr, "%s\n", err);
    return 1;
  }
  if (list)
    for (k = 0; k < n; k++) {
      char t[1024];
      tpcdis_bundle(&b[k], t, sizeof(t));
      printf("%5u: %s\n", k, t);
    }
  if (outp) {
    f = fopen(outp, "wb");
    if (!f) {
      fprintf(stderr, "tpcasm: cannot write %s\n", outp);
      return 1;
    }
    for (k = 0; k < n; k++) {
      uint8_t bytes[32];
      int s, j;
      for (s = 0; s < 4; s++)
        for (j = 0; j < 8; j++)
          bytes[8 * s + j] = (uint8_t)(b[k].w[s] >> (8 * j));
      fwrite(bytes, 1, 32, f);
    }
    fclose(f);
  }
  free(b);
  return 0;
}
