/* Default seed of a test program: the SEED environment variable when it is set and not
 * empty (the Makefile exports it, so `SEED=N make test` reaches every suite), else the
 * program's own fixed default. A --seed option given on the command line wins over both.
 * Every program prints the seed it used and how to reproduce the run (docs/testing.md). */
#ifndef TF_SEED_H
#define TF_SEED_H

#include <stdint.h>
#include <stdlib.h>

static inline uint64_t tf_env_seed(uint64_t fallback) {
  const char *s = getenv("SEED");
  return (s && *s) ? (uint64_t)strtoull(s, NULL, 0) : fallback;
}

#endif /* TF_SEED_H */
