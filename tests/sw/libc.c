/* picolibc on the management core. Formatting and string/memory routines are
 * checked against independent simple implementations in this file on seeded
 * pseudo-random inputs (seed printed), plus a few printf lines to the UART.
 * Checked: snprintf %d %u %x %X %o %ld %s %c, widths, precision, padding,
 * truncation and return value; strtol/strtoul round trip; memcpy, memmove
 * (both overlap directions), memset, memcmp, strcmp, strncmp, strlen,
 * strchr; qsort; malloc/free. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tessera/tessera.h"
#include "tessera/test.h"

#define SEED 20261122u
static uint32_t xs = SEED;
static uint32_t rnd(void)
{
    xs ^= xs << 13;
    xs ^= xs >> 17;
    xs ^= xs << 5;
    return xs;
}

/* reference conversions */
static int ref_utoa(char *out, uint32_t v, uint32_t base, int upper)
{
    char tmp[33];
    int n = 0;
    do {
        uint32_t d = v % base;
        tmp[n++] = (char)(d < 10u ? '0' + d : (upper ? 'A' : 'a') + d - 10u);
        v /= base;
    } while (v);
    for (int i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    out[n] = 0;
    return n;
}
static int ref_itoa(char *out, int32_t v)
{
    if (v < 0) {
        out[0] = '-';
        return 1 + ref_utoa(out + 1, (uint32_t)0 - (uint32_t)v, 10u, 0);
    }
    return ref_utoa(out, (uint32_t)v, 10u, 0);
}
static int ref_strcmp_sign(const char *a, const char *b)
{
    while (*a && *a == *b) {
        a++;
        b++;
    }
    return (unsigned char)*a < (unsigned char)*b ? -1 : (unsigned char)*a > (unsigned char)*b;
}
static int sign(int v) { return (v > 0) - (v < 0); }
static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    printf("libc test, seed %u\n", SEED);
    char got[64], exp[64];

    /* integers */
    uint32_t bad = 0;
    for (int i = 0; i < 12; i++) {
        uint32_t v = rnd() >> (rnd() % 32u);
        int32_t s = (int32_t)rnd() >> (rnd() % 32u);
        int n;
        n = snprintf(got, sizeof got, "%d", (int)s);
        bad += (n != ref_itoa(exp, s)) || strcmp(got, exp) != 0;
        n = snprintf(got, sizeof got, "%u", (unsigned)v);
        bad += (n != ref_utoa(exp, v, 10u, 0)) || strcmp(got, exp) != 0;
        snprintf(got, sizeof got, "%x", (unsigned)v);
        ref_utoa(exp, v, 16u, 0);
        bad += strcmp(got, exp) != 0;
        snprintf(got, sizeof got, "%X", (unsigned)v);
        ref_utoa(exp, v, 16u, 1);
        bad += strcmp(got, exp) != 0;
        snprintf(got, sizeof got, "%o", (unsigned)v);
        ref_utoa(exp, v, 8u, 0);
        bad += strcmp(got, exp) != 0;
        snprintf(got, sizeof got, "%ld", (long)s);
        ref_itoa(exp, s);
        bad += strcmp(got, exp) != 0;
        /* zero padding to 12 and left alignment in 12 */
        char digits[16];
        int nd = ref_utoa(digits, v, 10u, 0);
        snprintf(got, sizeof got, "%012u|%-12u|", (unsigned)v, (unsigned)v);
        memset(exp, 0, sizeof exp);
        for (int k = 0; k < 12 - nd; k++)
            exp[k] = '0';
        strcpy(exp + (12 - nd), digits);
        strcat(exp, "|");
        strcat(exp, digits);
        for (int k = nd; k < 12; k++)
            strcat(exp, " ");
        strcat(exp, "|");
        bad += strcmp(got, exp) != 0;
        /* strtol / strtoul round trip */
        ref_itoa(exp, s);
        bad += strtol(exp, NULL, 10) != s;
        ref_utoa(exp, v, 16u, 0);
        bad += strtoul(exp, NULL, 16) != v;
    }
    CHECK_EQ(bad, 0u);

    /* strings, chars, precision, truncation */
    volatile size_t small = 8;
    int n = snprintf(got, small, "%s-%c-%d", "abcdef", 'Z', 42);
    CHECK_EQ(n, 11);              /* would-be length */
    CHECK_EQ(strlen(got), 7u);    /* truncated, terminated */
    CHECK(memcmp(got, "abcdef-", 7) == 0);
    snprintf(got, sizeof got, "[%5s][%-5s][%.2s]", "ab", "ab", "abcdef");
    CHECK(strcmp(got, "[   ab][ab   ][ab]") == 0);
    snprintf(got, sizeof got, "%#x %#o %+d % d", 255u, 8u, 5, 7);
    CHECK(strcmp(got, "0xff 010 +5  7") == 0);

    /* memory and string routines against byte loops */
    static uint8_t a[512], b[512], c[512];
    bad = 0;
    for (int it = 0; it < 10; it++) {
        for (int k = 0; k < 512; k++)
            a[k] = (uint8_t)rnd();
        uint32_t len = rnd() % 200u, so = rnd() % 64u, d = rnd() % 64u;
        memset(b, 0x55, sizeof b);
        memcpy(b + d, a + so, len);
        for (uint32_t k = 0; k < 512; k++) {
            uint8_t e = (k >= d && k < d + len) ? a[so + k - d] : 0x55;
            bad += b[k] != e;
        }
        /* memmove with overlap, both directions */
        memcpy(b, a, 512);
        memcpy(c, a, 512);
        uint32_t from = rnd() % 256u, to = rnd() % 256u;
        memmove(b + to, b + from, len);
        uint8_t tmp[256];
        for (uint32_t k = 0; k < len; k++)
            tmp[k] = c[from + k];
        for (uint32_t k = 0; k < len; k++)
            c[to + k] = tmp[k];
        bad += memcmp(b, c, 512) != 0;
        /* memset */
        uint8_t val = (uint8_t)rnd();
        memset(b + so, val, len);
        for (uint32_t k = 0; k < len; k++)
            bad += b[so + k] != val;
        /* memcmp sign */
        memcpy(c, b, 512);
        if (len) {
            uint32_t at = rnd() % len;
            c[at] = (uint8_t)(c[at] + 1u + rnd() % 200u);
            int r = memcmp(b, c, len);
            int e = b[at] < c[at] ? -1 : 1;
            bad += sign(r) != e;
        }
        /* strings */
        char s1[40], s2[40];
        uint32_t l1 = rnd() % 39u, l2 = rnd() % 39u;
        for (uint32_t k = 0; k < l1; k++)
            s1[k] = (char)('a' + rnd() % 3u);
        for (uint32_t k = 0; k < l2; k++)
            s2[k] = (char)('a' + rnd() % 3u);
        s1[l1] = 0;
        s2[l2] = 0;
        bad += strlen(s1) != l1;
        bad += sign(strcmp(s1, s2)) != ref_strcmp_sign(s1, s2);
        bad += strcmp(s1, s1) != 0;
        char *ch = strchr(s1, 'c');
        const char *rf = NULL;
        for (uint32_t k = 0; k < l1; k++)
            if (s1[k] == 'c') { rf = &s1[k]; break; }
        bad += ch != rf;
        bad += sign(strncmp(s1, s2, 0)) != 0;
    }
    CHECK_EQ(bad, 0u);

    /* qsort vs insertion sort */
    static uint32_t q1[120], q2[120];
    for (int k = 0; k < 120; k++)
        q1[k] = q2[k] = rnd() % 1000u;
    qsort(q1, 120, sizeof q1[0], cmp_u32);
    for (int i = 1; i < 120; i++) {
        uint32_t x = q2[i];
        int j = i - 1;
        while (j >= 0 && q2[j] > x) {
            q2[j + 1] = q2[j];
            j--;
        }
        q2[j + 1] = x;
    }
    CHECK(memcmp(q1, q2, sizeof q1) == 0);

    /* heap: blocks are distinct, writable, and reusable after free */
    uint8_t *blk[8];
    for (int k = 0; k < 8; k++) {
        blk[k] = malloc(100u + 10u * (uint32_t)k);
        CHECK(blk[k] != NULL);
        if (blk[k])
            memset(blk[k], k + 1, 100u + 10u * (uint32_t)k);
    }
    bad = 0;
    for (int k = 0; k < 8; k++)
        for (uint32_t m = 0; blk[k] && m < 100u + 10u * (uint32_t)k; m++)
            bad += blk[k][m] != (uint8_t)(k + 1);
    CHECK_EQ(bad, 0u);
    for (int k = 0; k < 8; k++)
        free(blk[k]);
    void *big = malloc(1024);
    CHECK(big != NULL);
    free(big);

    printf("printf: %d %u 0x%08x %s %c\n", -12345, 4000000000u, 0xC0FFEEu, "ok", '!');
    return 0;
}
