/* Machine-readable benchmark records, for C and C++ benches (chip tests and block
 * testbenches alike).
 *
 * One measurement is one line on stdout:
 *
 *   BENCH {"name":"mme/bench_bf16_16x","unit":"cycles","cycles":67313,"ideal":65536,
 *          "util":0.9736,...extra fields}
 *
 * `name` is unique within a bench suite ("<area>/<case>"); `cycles` is the measured value
 * in `unit` (NULL: "cycles"); `ideal` is the value a perfect design would reach in the
 * same unit (0: the bench has no ideal, and "util" is null). util = ideal / cycles for a
 * unit that counts cycles ("cycles", "cycles/job", ...), cycles / ideal for a rate (any
 * other unit, e.g. "beats/cycle"), so 1.0 is always the ideal. Extra fields are a JSON
 * fragment given as a printf format ("\"engines\":%u,\"type\":\"%s\"", NULL for none).
 * util/bench_collect.py gathers
 * the lines of every bench log into docs/results/<config>.json (docs/performance.md).
 * The human-readable output of a bench stays as it is; these lines come in addition.
 */
#ifndef TESSERA_BENCH_REC_H
#define TESSERA_BENCH_REC_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static inline void bench_rec_value_(const char *key, double v) {
  if (v > -1e15 && v < 1e15 && v == (double)(long long)v) printf(",\"%s\":%.0f", key, v);
  else printf(",\"%s\":%.6g", key, v);
}

static inline void bench_vrecord(const char *name, const char *unit, double cycles, double ideal,
                                 const char *extra_fmt, va_list ap) {
  const char *u = unit ? unit : "cycles";
  const int rate = strncmp(u, "cycles", 6) != 0;
  printf("BENCH {\"name\":\"%s\",\"unit\":\"%s\"", name, u);
  bench_rec_value_("cycles", cycles);
  bench_rec_value_("ideal", ideal > 0 ? ideal : 0);
  if (ideal > 0 && cycles > 0) printf(",\"util\":%.4f", rate ? cycles / ideal : ideal / cycles);
  else printf(",\"util\":null");
  if (extra_fmt && extra_fmt[0]) {
    printf(",");
    vprintf(extra_fmt, ap);
  }
  printf("}\n");
  fflush(stdout);
}

/* One record: see above. */
static inline void bench_record(const char *name, const char *unit, double cycles, double ideal,
                                const char *extra_fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6), unused))
#endif
    ;
static inline void bench_record(const char *name, const char *unit, double cycles, double ideal,
                                const char *extra_fmt, ...) {
  va_list ap;
  va_start(ap, extra_fmt);
  bench_vrecord(name, unit, cycles, ideal, extra_fmt, ap);
  va_end(ap);
}

#endif /* TESSERA_BENCH_REC_H */
