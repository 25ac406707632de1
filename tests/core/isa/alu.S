# RV32I register/immediate ALU instructions, LUI/AUIPC and x0 handling.
#include "test_macros.h"
  .text
  .globl test_main
test_main:
  TEST 1
  li    a0, 5
  li    a1, 7
  add   a2, a0, a1
  CHECK a2, 12
  TEST 2
  sub   a2, a0, a1
  CHECK a2, -2
  j pass
