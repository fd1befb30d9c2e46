// What the processor offers that Swift code built for the baseline of its architecture cannot
// ask for, imported as the module CProcessor: a prefetch hint, counts and selects of bits that
// use POPCNT, and BMI2's PDEP, where the processor has them, and searches that keep their
// conditional moves (index_search.h).
//
// Swift has no prefetch, and on x86-64 it compiles for the 2003 baseline, which lacks POPCNT (a
// dozen instructions a word instead of one) and BMI2 (a select of one bit of a word in one
// instruction, and shifts that need no particular register). The search inside an entry block
// counts the zeros of its high bits word by word and then selects one: most of a warm lookup's
// work. The functions below are compiled three times, for the baseline, for POPCNT and for
// POPCNT with BMI1 and BMI2, and CPUID chooses once per process (every x86-64 processor since
// 2008 has POPCNT, since 2013 to 2015 BMI2); elsewhere the portable code runs, which on arm64 is
// already one instruction a count.
#ifndef CALLDIR_PROCESSOR_H
#define CALLDIR_PROCESSOR_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

// A hint that memory is about to be read. A hint reads nothing a program sees and never faults,
// whatever the address.
static inline void calldir_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

// The little-endian 64-bit word at `bytes`, which may be unaligned.
static inline uint64_t calldir_word_le(const unsigned char *bytes) {
  uint64_t word;
  memcpy(&word, bytes, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  word = __builtin_bswap64(word);
#endif
  return word;
}

// The select of `calldir_select`, without a loop and without a branch: the set bits of each byte
// (the first steps of a popcount), their running sums in each byte (one multiply), the byte where
// the sum passes `rank` (the bytes whose sums are at most `rank`, counted from their top bits with
// a multiply), then the same two steps over the bits of that byte, spread one to a byte. The
// branches of a loop over the byte's bits were a third of a warm lookup's mispredictions. One
// body, compiled twice below.
#define CALLDIR_SELECT_BODY                                                                      \
  const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;                    \
  uint64_t counts = bits - ((bits >> 1) & 0x5555555555555555ULL);                                \
  counts = (counts & 0x3333333333333333ULL) + ((counts >> 2) & 0x3333333333333333ULL);           \
  counts = (counts + (counts >> 4)) & 0x0F0F0F0F0F0F0F0FULL;                                     \
  uint64_t sums = counts * ones; /* byte i: the set bits of bytes 0 ... i, at most 64 */         \
  rank &= 63; /* below 64 when the precondition holds */                                        \
  uint64_t atMost = ((rank * ones) | highs) - sums; /* top bit: sum <= rank, no borrow out */    \
  unsigned byte = (unsigned)((((atMost & highs) >> 7) * ones) >> 56); /* bytes before it */       \
  if (byte >= 8) return 64;                                                                      \
  uint64_t before = ((sums << 8) >> (8 * byte)) & 0xFF; /* set bits of bytes 0 ... byte - 1 */  \
  uint64_t in = (bits >> (8 * byte)) & 0xFF;                                                     \
  /* Bit i of the byte to byte i (0x80 + nonzero sets the top bit, no carry), then as above. */ \
  uint64_t spread = (((in * ones) & 0x8040201008040201ULL) + 0x7F7F7F7F7F7F7F7FULL) & highs;     \
  uint64_t bitSums = (spread >> 7) * ones;                                                       \
  uint64_t bitsAtMost = (((rank - before) * ones) | highs) - bitSums;                            \
  unsigned bit = (unsigned)((((bitsAtMost & highs) >> 7) * ones) >> 56);                         \
  return bit >= 8 ? 64 : (int)(8 * byte + bit);

// The search of `calldir_select_zero`: the zeros of each little-endian word counted off `rank`
// until a word holds more zeros than are left, the last, partial word read byte by byte and
// masked to the length, then the select in that word (`SELECT`, compiled alike). One body,
// compiled twice below.
#define CALLDIR_SELECT_ZERO_BODY(SELECT)                                  \
  const unsigned char *at = (const unsigned char *)bytes;                 \
  size_t words = length / 8, tail = length % 8;                           \
  for (size_t word = 0; word < words; word++) {                           \
    uint64_t zeros = ~calldir_word_le(at + 8 * word);                     \
    uint64_t count = (uint64_t)__builtin_popcountll(zeros);               \
    if (rank < count) return (int64_t)(64 * word) + SELECT(zeros, rank);  \
    rank -= count;                                                        \
  }                                                                       \
  if (tail == 0) return -1;                                               \
  uint64_t last = 0;                                                      \
  for (size_t byte = 0; byte < tail; byte++)                              \
    last |= (uint64_t)at[8 * words + byte] << (8 * byte);                 \
  uint64_t zeros = ~last & ((1ULL << (8 * tail)) - 1);                    \
  if (rank >= (uint64_t)__builtin_popcountll(zeros)) return -1;           \
  return (int64_t)(64 * words) + SELECT(zeros, rank);

// The same search from the last byte back, for a zero of rank `rank` counted from the end: eight
// bytes at a time ending at the last byte, then the bytes before the last whole window, masked.
// Half the walk of the search from the start, for the zeros in the vector's second half. One body,
// compiled twice below.
#define CALLDIR_SELECT_ZERO_BACKWARD_BODY(SELECT)                                      \
  const unsigned char *at = (const unsigned char *)bytes;                              \
  size_t end = length;                                                                 \
  while (end >= 8) {                                                                   \
    uint64_t zeros = ~calldir_word_le(at + end - 8);                                   \
    uint64_t count = (uint64_t)__builtin_popcountll(zeros);                            \
    if (rank < count) return (int64_t)(8 * (end - 8)) + SELECT(zeros, count - 1 - rank); \
    rank -= count;                                                                     \
    end -= 8;                                                                          \
  }                                                                                    \
  if (end == 0) return -1;                                                             \
  uint64_t first = 0; /* bytes 0 ... end - 1, end below 8 */                           \
  if (length >= 8) {                                                                   \
    first = calldir_word_le(at);                                                       \
  } else {                                                                             \
    for (size_t byte = 0; byte < end; byte++) first |= (uint64_t)at[byte] << (8 * byte); \
  }                                                                                    \
  uint64_t zeros = ~first & ((1ULL << (8 * end)) - 1);                                 \
  uint64_t count = (uint64_t)__builtin_popcountll(zeros);                              \
  return rank < count ? SELECT(zeros, count - 1 - rank) : -1;

static inline int calldir_select_portable(uint64_t bits, uint64_t rank) { CALLDIR_SELECT_BODY }

// The two zero searches, `calldir_select_zero_NAME` and `calldir_select_zero_backward_NAME`,
// compiled with `ATTRIBUTES` around the select `SELECT`.
#define CALLDIR_ZERO_SEARCHES(NAME, ATTRIBUTES, SELECT)                                                  \
  ATTRIBUTES static inline int64_t calldir_select_zero_##NAME(const void *bytes, size_t length, uint64_t rank) { \
    CALLDIR_SELECT_ZERO_BODY(SELECT)                                                                      \
  }                                                                                                       \
  ATTRIBUTES static inline int64_t calldir_select_zero_backward_##NAME(                                   \
      const void *bytes, size_t length, uint64_t rank) {                                                  \
    CALLDIR_SELECT_ZERO_BACKWARD_BODY(SELECT)                                                             \
  }

CALLDIR_ZERO_SEARCHES(portable, , calldir_select_portable)

#if defined(__x86_64__)
__attribute__((target("popcnt"))) static inline int calldir_select_popcnt(uint64_t bits, uint64_t rank) {
  CALLDIR_SELECT_BODY
}

// PDEP deposits the one bit of `1 << rank` at the position of the `rank`-th set bit of `bits`.
__attribute__((target("popcnt,bmi,bmi2"))) static inline int calldir_select_bmi2(uint64_t bits, uint64_t rank) {
  uint64_t bit = _pdep_u64(1ULL << (rank & 63), bits);
  return bit == 0 ? 64 : __builtin_ctzll(bit);
}

CALLDIR_ZERO_SEARCHES(popcnt, __attribute__((target("popcnt"))), calldir_select_popcnt)
CALLDIR_ZERO_SEARCHES(bmi2, __attribute__((target("popcnt,bmi,bmi2"))), calldir_select_bmi2)

// Which of the three compilations this processor runs, asked once: 0 not asked yet, then one of
// the levels below. A race between two first callers stores the same answer twice. The question
// is out of line, so that a caller that only reads the answer saves no registers for it. (The
// answer lives in a function's static: Swift's importer emits those of a header's inline
// functions, not a header's own statics.)
enum { CALLDIR_LEVEL_BASELINE = 1, CALLDIR_LEVEL_POPCNT = 2, CALLDIR_LEVEL_BMI2 = 3 };

static inline int *calldir_level_state(void) {
  static int state;
  return &state;
}

// POPCNT is CPUID leaf 1, ECX bit 23; BMI1 and BMI2 are leaf 7, EBX bits 3 and 8. AMD processors
// before Zen 3 (family 19h) run PDEP as microcode, tens to hundreds of cycles, so there the
// level stays at POPCNT.
__attribute__((noinline, cold)) static int calldir_ask_level(void) {
  unsigned a, b, c, d, level = CALLDIR_LEVEL_BASELINE;
  if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_POPCNT)) {
    level = CALLDIR_LEVEL_POPCNT;
    unsigned family = (a >> 8) & 0xF;
    if (family == 0xF) family += (a >> 20) & 0xFF;
    unsigned vendor = 0, unused;
    __get_cpuid(0, &unused, &vendor, &unused, &unused);
    int slowDeposit = vendor == 0x68747541 /* "Auth", of AuthenticAMD */ && family < 0x19;
    if (__get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_BMI) && (b & bit_BMI2) && !slowDeposit)
      level = CALLDIR_LEVEL_BMI2;
  }
  __atomic_store_n(calldir_level_state(), (int)level, __ATOMIC_RELAXED);
  return (int)level;
}

static inline int calldir_level(void) {
  int state = __atomic_load_n(calldir_level_state(), __ATOMIC_RELAXED);
  if (__builtin_expect(state == 0, 0)) state = calldir_ask_level();
  return state;
}
#endif

// The bit position of the zero bit of 0-based rank `rank` among the `8 * length` bits of the
// `length` bytes at `bytes` (bit i is bit i % 8 of byte i / 8), or -1 when there are not that many
// zeros. Reads exactly `length` bytes.
static inline int64_t calldir_select_zero(const void *bytes, size_t length, uint64_t rank) {
#if defined(__x86_64__)
  int level = calldir_level();
  if (level == CALLDIR_LEVEL_BMI2) return calldir_select_zero_bmi2(bytes, length, rank);
  if (level == CALLDIR_LEVEL_POPCNT) return calldir_select_zero_popcnt(bytes, length, rank);
#endif
  return calldir_select_zero_portable(bytes, length, rank);
}

// The bit position of the zero bit of 0-based rank `rank` among the `8 * length` bits at `bytes`,
// as `calldir_select_zero`, walked from whichever end is nearer: `zeros` is the count of zero bits
// there (the caller knows the ones: `8 * length` minus them). A wrong count makes the answer
// another zero's position or -1, never a read outside the `length` bytes.
static inline int64_t calldir_select_zero_nearer(const void *bytes, size_t length, uint64_t rank, uint64_t zeros) {
  if (rank >= zeros) return -1;
  if (rank < zeros / 2) return calldir_select_zero(bytes, length, rank);
#if defined(__x86_64__)
  int level = calldir_level();
  if (level == CALLDIR_LEVEL_BMI2) return calldir_select_zero_backward_bmi2(bytes, length, zeros - 1 - rank);
  if (level == CALLDIR_LEVEL_POPCNT) return calldir_select_zero_backward_popcnt(bytes, length, zeros - 1 - rank);
#endif
  return calldir_select_zero_backward_portable(bytes, length, zeros - 1 - rank);
}

// The position (0 ... 63) of the set bit of 0-based rank `rank` in `bits`.
// Precondition: `rank` is below the number of set bits (otherwise some position up to 64).
static inline int calldir_select(uint64_t bits, uint64_t rank) {
#if defined(__x86_64__)
  int level = calldir_level();
  if (level == CALLDIR_LEVEL_BMI2) return calldir_select_bmi2(bits, rank);
  if (level == CALLDIR_LEVEL_POPCNT) return calldir_select_popcnt(bits, rank);
#endif
  return calldir_select_portable(bits, rank);
}

#endif
