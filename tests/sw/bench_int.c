/* bench_int: an integer benchmark for small RV32IM cores (our own kernels,
 * in the spirit of Dhrystone/CoreMark but not derived from them).
 *
 * Kernels, each run ITERATIONS times on data derived from the iteration
 * number, each result checked against a second, independent computation:
 *   list    build a 256-node singly linked list in a shuffled order, walk it
 *           (position-weighted sum, max, odd count), reverse it in place and
 *           walk again. Check: forward + reversed weighted sums must equal
 *           (N-1) * sum of values, max and count recomputed over the array.
 *   matmul  16x16 int32 C = A * B with i-j-k loops. Check: C recomputed with
 *           k-outer (rank-1 update) order, and C*x == A*(B*x) for a vector x.
 *   fsm     tokenizer state machine (identifiers, numbers, operators, blanks)
 *           over generated text, plus a hash of token kinds. Check: token
 *           counts recomputed from character classes of neighbours.
 *   crc     CRC-16/CCITT-FALSE and CRC-32 (IEEE) of 1 KiB, table driven
 *           (tables built at start). Check: bit-serial versions.
 * Reports cycles, instructions and CPI per kernel and in total (mcycle and
 * minstret through port_*), then exits 0 if every check held.
 * Only tests/sw/port/ is platform specific. */
#include <stdint.h>
#include "port/bench_port.h"

#ifndef ITERATIONS
#define ITERATIONS 8
#endif

/* ------------------------------------------------------------ output */
static void out_s(const char *s)
{
    while (*s)
        port_putc(*s++);
}
static void out_u(uint32_t v)
{
    char b[11];
    int n = 0;
    do {
        b[n++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v);
    while (n)
        port_putc(b[--n]);
}
static void out_x(uint32_t v)
{
    out_s("0x");
    for (int i = 28; i >= 0; i -= 4)
        port_putc("0123456789abcdef"[(v >> i) & 15u]);
}
static void out_milli(uint32_t num, uint32_t den)   /* num/den with 3 decimals */
{
    if (den == 0u) {
        out_s("-");
        return;
    }
    uint64_t q = ((uint64_t)num * 1000u + den / 2u) / den;
    out_u((uint32_t)(q / 1000u));
    port_putc('.');
    uint32_t f = (uint32_t)(q % 1000u);
    port_putc((char)('0' + f / 100u));
    port_putc((char)('0' + f / 10u % 10u));
    port_putc((char)('0' + f % 10u));
}

static uint32_t failures, first_failure;
static void check(int ok, uint32_t id)
{
    if (!ok) {
        failures++;
        if (!first_failure)
            first_failure = id;
        out_s("bench_int: check ");
        out_u(id);
        out_s(" FAILED\r\n");
    }
}

static uint32_t lcg_state;
static uint32_t lcg(void)
{
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return lcg_state;
}

/* ------------------------------------------------------------ list */
#define LIST_N 256u
typedef struct node {
    struct node *next;
    int32_t value;
} node_t;
static node_t nodes[LIST_N];
static uint32_t order[LIST_N];

typedef struct { int32_t wsum, max; uint32_t odd, len; } walk_t;

static walk_t walk(const node_t *n)
{
    walk_t w = { 0, -2147483647 - 1, 0u, 0u };
    while (n) {
        w.wsum += (int32_t)w.len * n->value;
        if (n->value > w.max)
            w.max = n->value;
        w.odd += (uint32_t)n->value & 1u;
        w.len++;
        n = n->next;
    }
    return w;
}

static node_t *reverse(node_t *n)
{
    node_t *prev = 0;
    while (n) {
        node_t *next = n->next;
        n->next = prev;
        prev = n;
        n = next;
    }
    return prev;
}

static uint32_t kernel_list(uint32_t it)
{
    lcg_state = 0x1234u + it;
    for (uint32_t i = 0; i < LIST_N; i++)
        order[i] = i;
    for (uint32_t i = LIST_N - 1u; i > 0u; i--) {   /* Fisher-Yates shuffle */
        uint32_t j = (lcg() >> 8) % (i + 1u);
        uint32_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (uint32_t i = 0; i < LIST_N; i++)
        nodes[i].value = (int32_t)((lcg() >> 12) % 2001u) - 1000;
    for (uint32_t i = 0; i + 1u < LIST_N; i++)
        nodes[order[i]].next = &nodes[order[i + 1u]];
    nodes[order[LIST_N - 1u]].next = 0;

    node_t *head = &nodes[order[0]];
    walk_t f = walk(head);
    head = reverse(head);
    walk_t r = walk(head);

    /* second method: over the array, independent of the links */
    int32_t sum = 0, max = -2147483647 - 1;
    uint32_t odd = 0;
    for (uint32_t i = 0; i < LIST_N; i++) {
        sum += nodes[i].value;
        if (nodes[i].value > max)
            max = nodes[i].value;
        odd += (uint32_t)nodes[i].value & 1u;
    }
    check(f.len == LIST_N && r.len == LIST_N, 10);
    check(f.wsum + r.wsum == (int32_t)(LIST_N - 1u) * sum, 11);
    check(f.max == max && r.max == max, 12);
    check(f.odd == odd && r.odd == odd, 13);
    /* the first forward node is the last reversed one */
    check(head->value == nodes[order[LIST_N - 1u]].value, 14);
    return (uint32_t)f.wsum ^ (uint32_t)r.wsum;
}

/* ------------------------------------------------------------ matmul */
#define MN 16u
static int32_t ma[MN][MN], mb[MN][MN], mc[MN][MN], md[MN][MN];

static uint32_t kernel_matmul(uint32_t it)
{
    lcg_state = 0xabcd0000u + it;
    for (uint32_t i = 0; i < MN; i++)
        for (uint32_t j = 0; j < MN; j++) {
            ma[i][j] = (int32_t)((lcg() >> 16) & 0x3FFu) - 512;
            mb[i][j] = (int32_t)((lcg() >> 16) & 0x3FFu) - 512;
        }
    for (uint32_t i = 0; i < MN; i++)
        for (uint32_t j = 0; j < MN; j++) {
            int32_t acc = 0;
            for (uint32_t k = 0; k < MN; k++)
                acc += ma[i][k] * mb[k][j];
            mc[i][j] = acc;
        }
    /* second method: rank-1 updates (k outer) */
    for (uint32_t i = 0; i < MN; i++)
        for (uint32_t j = 0; j < MN; j++)
            md[i][j] = 0;
    for (uint32_t k = 0; k < MN; k++)
        for (uint32_t i = 0; i < MN; i++) {
            int32_t a = ma[i][k];
            for (uint32_t j = 0; j < MN; j++)
                md[i][j] += a * mb[k][j];
        }
    uint32_t diff = 0, sig = 0;
    for (uint32_t i = 0; i < MN; i++)
        for (uint32_t j = 0; j < MN; j++) {
            diff |= (uint32_t)(mc[i][j] ^ md[i][j]);
            sig = sig * 31u + (uint32_t)mc[i][j];
        }
    check(diff == 0u, 20);
    /* third: C x == A (B x) */
    int32_t x[MN], bx[MN];
    for (uint32_t j = 0; j < MN; j++)
        x[j] = (int32_t)(lcg() >> 28) - 8;
    for (uint32_t k = 0; k < MN; k++) {
        int32_t s = 0;
        for (uint32_t j = 0; j < MN; j++)
            s += mb[k][j] * x[j];
        bx[k] = s;
    }
    uint32_t bad = 0;
    for (uint32_t i = 0; i < MN; i++) {
        int32_t l = 0, r = 0;
        for (uint32_t j = 0; j < MN; j++)
            l += mc[i][j] * x[j];
        for (uint32_t k = 0; k < MN; k++)
            r += ma[i][k] * bx[k];
        bad += l != r;
    }
    check(bad == 0u, 21);
    return sig;
}

/* ------------------------------------------------------------ fsm */
#define TEXT_N 1024u
static char text[TEXT_N];
enum { C_SPACE, C_ALPHA, C_DIGIT, C_OP };
static int cls(char c)
{
    if (c == ' ' || c == '\n' || c == '\t')
        return C_SPACE;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')
        return C_ALPHA;
    if (c >= '0' && c <= '9')
        return C_DIGIT;
    return C_OP;
}

static uint32_t kernel_fsm(uint32_t it)
{
    static const char alphabet[] = "abcxyzAB_0123456789  \n+-*/=();,";
    lcg_state = 0x5eed0000u + it;
    for (uint32_t i = 0; i < TEXT_N; i++)
        text[i] = alphabet[(lcg() >> 16) % (sizeof alphabet - 1u)];

    /* method 1: explicit state machine */
    enum { S_IDLE, S_IDENT, S_NUMBER } st = S_IDLE;
    uint32_t n_id = 0, n_num = 0, n_op = 0, hash = 5381u;
    for (uint32_t i = 0; i < TEXT_N; i++) {
        char c = text[i];
        switch (st) {
        case S_IDLE:
            break;
        case S_IDENT:
        case S_NUMBER:
            if (cls(c) == C_ALPHA || cls(c) == C_DIGIT)
                continue;   /* token goes on */
            st = S_IDLE;
            break;
        }
        switch (cls(c)) {
        case C_ALPHA:
            st = S_IDENT;
            n_id++;
            hash = hash * 33u + 1u;
            break;
        case C_DIGIT:
            st = S_NUMBER;
            n_num++;
            hash = hash * 33u + 2u;
            break;
        case C_OP:
            n_op++;
            hash = hash * 33u + (uint32_t)(unsigned char)c;
            break;
        default:
            break;
        }
    }
    /* method 2: a token starts where a word character follows a non-word one */
    uint32_t m_id = 0, m_num = 0, m_op = 0;
    for (uint32_t i = 0; i < TEXT_N; i++) {
        int k = cls(text[i]);
        int prev_word = i > 0u && (cls(text[i - 1u]) == C_ALPHA || cls(text[i - 1u]) == C_DIGIT);
        if (k == C_OP)
            m_op++;
        else if (k == C_ALPHA && !prev_word)
            m_id++;
        else if (k == C_DIGIT && !prev_word)
            m_num++;
    }
    check(n_id == m_id, 30);
    check(n_num == m_num, 31);
    check(n_op == m_op, 32);
    return hash;
}

/* ------------------------------------------------------------ crc */
#define BUF_N 1024u
static uint8_t buf[BUF_N];
static uint32_t t32[256];
static uint16_t t16[256];

static void crc_tables(void)
{
    for (uint32_t i = 0; i < 256u; i++) {
        uint32_t c = i;
        for (int b = 0; b < 8; b++)
            c = (c & 1u) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
        t32[i] = c;
        uint32_t d = i << 8;
        for (int b = 0; b < 8; b++)
            d = (d & 0x8000u) ? (d << 1) ^ 0x1021u : d << 1;
        t16[i] = (uint16_t)d;
    }
}

static uint32_t kernel_crc(uint32_t it)
{
    lcg_state = 0xc0c0c0c0u + it;
    for (uint32_t i = 0; i < BUF_N; i++)
        buf[i] = (uint8_t)(lcg() >> 24);
    uint32_t c32 = 0xFFFFFFFFu;
    uint16_t c16 = 0xFFFFu;
    for (uint32_t i = 0; i < BUF_N; i++) {
        c32 = (c32 >> 8) ^ t32[(c32 ^ buf[i]) & 0xFFu];
        c16 = (uint16_t)((c16 << 8) ^ t16[((c16 >> 8) ^ buf[i]) & 0xFFu]);
    }
    c32 = ~c32;
    /* second method: bit-serial, every 8th iteration over the whole buffer,
     * otherwise over a 128-byte prefix compared with a table prefix run */
    uint32_t len = (it % 8u == 0u) ? BUF_N : 128u;
    uint32_t b32 = 0xFFFFFFFFu, b16 = 0xFFFFu, p32 = 0xFFFFFFFFu;
    uint16_t p16 = 0xFFFFu;
    for (uint32_t i = 0; i < len; i++) {
        b32 ^= buf[i];
        b16 ^= (uint32_t)buf[i] << 8;
        for (int b = 0; b < 8; b++) {
            b32 = (b32 & 1u) ? (b32 >> 1) ^ 0xEDB88320u : b32 >> 1;
            b16 = (b16 & 0x8000u) ? ((b16 << 1) ^ 0x1021u) & 0xFFFFu : (b16 << 1) & 0xFFFFu;
        }
        p32 = (p32 >> 8) ^ t32[(p32 ^ buf[i]) & 0xFFu];
        p16 = (uint16_t)((p16 << 8) ^ t16[((p16 >> 8) ^ buf[i]) & 0xFFu]);
    }
    if (len == BUF_N) {
        check(~b32 == c32, 40);
        check(b16 == c16, 41);
    } else {
        check(b32 == p32, 42);
        check(b16 == p16, 43);
    }
    return c32 ^ c16;
}

/* A machine-readable record (tests/framework/bench_rec.h; kept short, the UART is slow):
 * the collector takes the unit as cycles and computes "util" = instructions / cycles =
 * 1 / CPI, the ideal being one instruction per cycle. */
static void out_record(const char *kernel, uint32_t cycles, uint32_t instructions)
{
    out_s("BENCH {\"name\":\"core_int/");
    out_s(kernel);
    out_s("\",\"cycles\":");
    out_u(cycles);
    out_s(",\"ideal\":");
    out_u(instructions);
    out_s("}\r\n");
}

/* ------------------------------------------------------------ driver */
typedef uint32_t (*kernel_fn)(uint32_t);
static const struct { const char *name; kernel_fn fn; } kernels[] = {
    { "list", kernel_list },
    { "matmul", kernel_matmul },
    { "fsm", kernel_fsm },
    { "crc", kernel_crc },
};
#define NK (sizeof kernels / sizeof kernels[0])

int main(void)
{
    port_init();
    crc_tables();
    /* the table itself against known entries of the IEEE/CCITT polynomials
     * computed bit by bit above: entry 1 and 128 are the polynomials shifted */
    check(t32[128] == 0xEDB88320u && t16[1] == 0x1021u, 1);

    uint32_t cyc[NK] = { 0 }, ins[NK] = { 0 }, sig = 0;
    uint32_t c0 = port_cycles(), i0 = port_instret();
    for (uint32_t it = 0; it < ITERATIONS; it++) {
        for (uint32_t k = 0; k < NK; k++) {
            uint32_t kc = port_cycles(), ki = port_instret();
            sig = sig * 0x9E3779B1u + kernels[k].fn(it);
            cyc[k] += port_cycles() - kc;
            ins[k] += port_instret() - ki;
        }
    }
    uint32_t tc = port_cycles() - c0, ti = port_instret() - i0;

    out_s("bench_int: ");
    out_u(ITERATIONS);
    out_s(" iterations, signature ");
    out_x(sig);
    out_s("\r\n");
    for (uint32_t k = 0; k < NK; k++) {
        out_s("  ");
        out_s(kernels[k].name);
        out_s(": cycles ");
        out_u(cyc[k]);
        out_s(" instructions ");
        out_u(ins[k]);
        out_s(" CPI ");
        out_milli(cyc[k], ins[k]);
        out_s("\r\n");
    }
    out_s("  total: cycles ");
    out_u(tc);
    out_s(" instructions ");
    out_u(ti);
    out_s(" CPI ");
    out_milli(tc, ti);
    out_s(" iterations/Mcycle ");
    out_milli(ITERATIONS * 1000u, tc / 1000u);
    out_s("\r\n");
    if (!failures) {
        for (uint32_t k = 0; k < NK; k++)
            out_record(kernels[k].name, cyc[k], ins[k]);
        out_record("total", tc, ti);
    }
    out_s(failures ? "bench_int: FAILED\r\n" : "bench_int: all checks passed\r\n");
    port_exit(failures ? (int)first_failure : 0);
}
