# FENCE is a no-op; FENCE.I makes stores to instruction memory visible to
# fetch (the fetch buffer is flushed). Self-modifying code is executed right
# after the fence, inside the prefetch window.
#include "test_macros.h"
  .text
  .globl test_main
test_main:
  TEST 1
  fence
  fence rw, rw
  fence iorw, iorw
  li    a0, 5
  CHECK a0, 5
  TEST 2
  li    a0, 0
  la    a1, slot1
  li    t0, 0x00150513           # addi a0, a0, 1
  sw    t0, 0(a1)
  FENCE_I
slot1:
  nop
  CHECK a0, 1
  TEST 3                         # patch twice, each time followed by fence.i
  la    a1, slot2
  li    t0, 0x00a50513           # addi a0, a0, 10
  sw    t0, 0(a1)
  FENCE_I
  call  slot2
  CHECK a0, 11
  li    t0, 0x06450513           # addi a0, a0, 100
  sw    t0, 0(a1)
  FENCE_I
  call  slot2
  CHECK a0, 111
  j pass

slot2:
  nop
  ret
