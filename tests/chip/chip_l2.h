/* L2 helpers shared by the chip suites (implemented in tests/chip/l2.c). */
#ifndef CHIP_L2_H
#define CHIP_L2_H

#include "tf.h"

/* Every slice invalidated, then switched to shared mode (all slices interleaved by
 * address, docs/l2.md "Shared mode"); TF_PASS or a failure. */
int chip_l2_all_shared(tf_ctx_t *t);

#endif
