/* L2 helpers shared by the chip suites (implemented in tests/chip/l2.c). */
#ifndef CHIP_L2_H
#define CHIP_L2_H

#include "tf.h"

/* Every slice invalidated, then switched to shared mode (all slices interleaved by
 * address, docs/l2.md "Shared mode"); TF_PASS or a failure. */
int chip_l2_all_shared(tf_ctx_t *t);

/* Every slice invalidated, then its set-index hash (CTRL.set_hash, docs/l2.md "Banks")
 * switched on or off; the other CTRL fields keep their values. */
int chip_l2_set_hash(tf_ctx_t *t, int on);

#endif
