/* Integer-heavy CPI workload for the Tessera core (runs on the core
 * testbench and on the chip). Each kernel's result is cross-checked against
 * a second, differently computed version; the testbench additionally
 * compares every retired instruction with its reference model.
 * test_main returns 0 on success or the number of the failing check. */
#include <stdint.h>

#define N 64

static uint32_t lcg_state = 12345u;
static uint32_t lcg(void) {
  lcg_state = lcg_state * 1103515245u + 12345u;
  return lcg_state >> 8;
}

static uint32_t crc_table[256];

static uint32_t crc32_bitwise(const uint8_t* p, int n) {
  uint32_t c = 0xffffffffu;
  for (int i = 0; i < n; i++) {
    c ^= p[i];
    for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xedb88320u & -(c & 1u));
  }
  return ~c;
}

static uint32_t crc32_table(const uint8_t* p, int n) {
  uint32_t c = 0xffffffffu;
  for (int i = 0; i < n; i++) c = crc_table[(c ^ p[i]) & 0xff] ^ (c >> 8);
  return ~c;
}

static void insertion_sort(int32_t* a, int n) {
  for (int i = 1; i < n; i++) {
    int32_t v = a[i];
    int j = i - 1;
    while (j >= 0 && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
}

#define M 8
static int32_t ma[M][M], mb[M][M], mc[M][M], mbt[M][M];

int test_main(void) {
  static uint8_t buf[256];
  static int32_t arr[N];

  /* 1: CRC-32, bitwise vs table-driven */
  for (int i = 0; i < 256; i++) {
    uint32_t c = (uint32_t)i;
    for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0xedb88320u : c >> 1;
    crc_table[i] = c;
  }
  for (int i = 0; i < 256; i++) buf[i] = (uint8_t)lcg();
  if (crc32_bitwise(buf, 256) != crc32_table(buf, 256)) return 1;
  /* known value of the standard check string "123456789" */
  const char* s = "123456789";
  if (crc32_table((const uint8_t*)s, 9) != 0xcbf43926u) return 2;

  /* 3: sort: ordered, same sum and xor as before */
  uint32_t sum0 = 0, x0 = 0;
  for (int i = 0; i < N; i++) {
    arr[i] = (int32_t)(lcg() - 0x400000u);
    sum0 += (uint32_t)arr[i];
    x0 ^= (uint32_t)arr[i];
  }
  insertion_sort(arr, N);
  uint32_t sum1 = 0, x1 = 0;
  for (int i = 0; i < N; i++) {
    sum1 += (uint32_t)arr[i];
    x1 ^= (uint32_t)arr[i];
    if (i && arr[i - 1] > arr[i]) return 3;
  }
  if (sum0 != sum1 || x0 != x1) return 4;

  /* 5: 8x8 matrix product, row-major vs transposed-B order */
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++) {
      ma[i][j] = (int32_t)(lcg() & 0xff) - 128;
      mb[i][j] = (int32_t)(lcg() & 0xff) - 128;
      mbt[j][i] = mb[i][j];
    }
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++) {
      int32_t acc = 0;
      for (int k = 0; k < M; k++) acc += ma[i][k] * mb[k][j];
      mc[i][j] = acc;
    }
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++) {
      int32_t acc = 0;
      for (int k = M - 1; k >= 0; k--) acc += mbt[j][k] * ma[i][k];
      if (acc != mc[i][j]) return 5;
    }

  /* 6: gcd by subtraction vs by remainder */
  for (int t = 0; t < 16; t++) {
    uint32_t a = (lcg() & 0xfff) + 1, b = (lcg() & 0xfff) + 1;
    uint32_t p = a, q = b;
    while (p != q) {
      if (p > q) p -= q; else q -= p;
    }
    uint32_t r = a, u = b;
    while (u) {
      uint32_t tmp = r % u;
      r = u;
      u = tmp;
    }
    if (p != r) return 6;
  }
  return 0;
}
