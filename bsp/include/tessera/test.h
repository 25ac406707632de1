/* Tessera BSP: test support for programs run by the simulator.
 *
 * End of test: the program writes `tohost` (an ELF symbol in section .tohost,
 * in DSRAM): 1 = pass, (n << 1) | 1 = fail with code n (n != 0). The simulator
 * watches that word and stops. Returning from main(x) or calling exit(x) is
 * the same as test_pass() for x == 0 and test_fail(x) otherwise.
 *
 * CHECK(cond) numbers the checks in execution order (1, 2, ...). The first
 * failing check's number is recorded and becomes the failure code, and every
 * failing check prints file:line on the UART. test_done() ends the program. */
#ifndef TESSERA_TEST_H
#define TESSERA_TEST_H

#include <stdint.h>

extern volatile uint32_t tohost;
extern volatile uint32_t fromhost;

void test_pass(void) __attribute__((noreturn));
void test_fail(uint32_t code) __attribute__((noreturn));
void test_done(void) __attribute__((noreturn));    /* pass unless a CHECK failed */

extern uint32_t test_checks;        /* checks executed */
extern uint32_t test_first_fail;    /* number of the first failing check, 0 if none */
extern uint32_t test_fail_count;

int test_check(int ok, const char *file, int line, const char *expr);
int test_check_eq(uint32_t got, uint32_t exp, const char *file, int line, const char *expr);

#define CHECK(cond) test_check(!!(cond), __FILE__, __LINE__, #cond)
#define CHECK_EQ(got, exp) test_check_eq((uint32_t)(got), (uint32_t)(exp), __FILE__, __LINE__, #got " == " #exp)

#endif /* TESSERA_TEST_H */
