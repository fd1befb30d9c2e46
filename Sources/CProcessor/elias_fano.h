// The rank of a number among the offsets of an Elias-Fano code (Spec/FORMAT.md, entry and range
// blocks), compiled with POPCNT and BMI2 where the processor has them: the zero search over the
// high bits is most of a warm lookup's work, and Swift cannot compile one function for a processor feature its target's
// baseline lacks. One body, compiled three times below, as the selects of processor.h are.
//
// Every read stays inside the two byte ranges whatever they hold: bytes past a range's end read as
// zero bits. So a damaged code gives some answer, never a read outside it; the reader answers
// only from a block whose CRC has passed.
#ifndef CALLDIR_ELIAS_FANO_H
#define CALLDIR_ELIAS_FANO_H

#include "processor.h"

// The little-endian word of the 8 bytes at `at` of the `length` bytes at `bytes`, bytes past the
// end read as zero.
static inline uint64_t calldir_word_within(const unsigned char *bytes, size_t length, uint64_t at) {
  if (at < length && length - at >= 8) return calldir_word_le(bytes + at);
  uint64_t word = 0;
  for (uint64_t index = 0; index < 8 && at < length && index < length - at; index++)
    word |= (uint64_t)bytes[at + index] << (8 * index);
  return word;
}

// The field of `width` bits (0 ... 64) at bit `bit` of the `length` bytes at `bytes`, packed least
// significant bit first; bytes past the end read as zero.
static inline uint64_t calldir_field_within(const unsigned char *bytes, size_t length, uint64_t bit, unsigned width) {
  if (width == 0) return 0;
  unsigned shift = (unsigned)(bit & 7);
  uint64_t value = calldir_word_within(bytes, length, bit >> 3) >> shift;
  if (width + shift > 64) value |= calldir_word_within(bytes, length, (bit >> 3) + 8) << (64 - shift);
  return width == 64 ? value : value & ((1ULL << width) - 1);
}

// The low part of `width` bits (0 ... 62) at bit `bit` of the `length` bytes at `bytes`, `mask`
// its low `width` bits set: one load when a whole word can be read at its byte (`last_word` is the
// last byte one can, negative when none or when the parts are wider than 57 bits),
// `calldir_field_within` otherwise. A part of at most 57 bits lies inside the 64 bits from its
// first byte, whatever its place in that byte.
__attribute__((always_inline)) static inline uint64_t calldir_low_part(
    const unsigned char *bytes, size_t length, int64_t last_word, uint64_t bit, unsigned width, uint64_t mask) {
  int64_t at = (int64_t)(bit >> 3);
  if (at <= last_word) return (calldir_word_le(bytes + at) >> (bit & 7)) & mask;
  return calldir_field_within(bytes, length, bit, width);
}

// The rank of the target's low part `target_low` in the run of offsets `element ... end - 1`,
// which share the target's high part: `i << 1` for the first offset `i` whose low part reaches
// the target's, with the low bit set when it equals it; `end << 1` when every low part of the
// run is below it (`end` at least 0). The run's
// low parts ascend: it is halved while long (clustered numbers put dozens in one), then read one
// by one, each low part one load where `last_word` allows (`calldir_low_part`; -1 reads every part
// through `calldir_field_within`).
__attribute__((always_inline)) static inline uint64_t calldir_run_rank(
    const unsigned char *lows, size_t low_length, int64_t last_word, unsigned low_bits, uint64_t target_low,
    int64_t element, int64_t end) {
  uint64_t mask = (1ULL << low_bits) - 1;
  while (end - element > 4) {
    int64_t half = (end - element) >> 1;
    uint64_t part = calldir_low_part(lows, low_length, last_word, (uint64_t)(element + half - 1) * low_bits, low_bits, mask);
    element += part < target_low ? half : 0;
    end = part < target_low ? end : element + half;
  }
  uint64_t bit = (uint64_t)element * low_bits;
  for (; element < end; element++, bit += low_bits) {
    uint64_t part = calldir_low_part(lows, low_length, last_word, bit, low_bits, mask);
    if (part >= target_low) return (uint64_t)element << 1 | (part == target_low);
  }
  return (uint64_t)end << 1; /* the halving kept `end` unless an offset below it reaches the target */
}

// The rank of the target's low part `target_low` among the offsets whose high parts are
// `high_part` or more, their ones starting at bit `position` of the high bits: the offsets
// sharing the target's high part are the run of ones there (`calldir_run_rank`). The offsets
// before the first whose low part reaches the target's are below it, and so are all of a run that
// ends short of it. The general case, out of line: a run that fills the word it was read from may
// go on past it, and low parts of 58 bits or more are read through `calldir_field_within`.
__attribute__((noinline, cold)) static uint64_t calldir_elias_fano_rank_runs(
    const unsigned char *lows, size_t low_length, const unsigned char *highs, size_t high_length, int64_t count,
    unsigned low_bits, uint64_t target_low, uint64_t high_part, int64_t position) {
  int64_t last_word = low_bits > 57 ? -1 : (int64_t)low_length - 8;
  for (;;) {
    unsigned shift = (unsigned)(position & 7);
    uint64_t rest = ~(calldir_word_within(highs, high_length, (uint64_t)position >> 3) >> shift);
    int64_t run = rest == 0 ? 64 : __builtin_ctzll(rest); /* ones from `position`, at most 64 - shift */
    int64_t first = position - (int64_t)high_part;       /* the ones before: position less its zeros */
    if (first < 0) return 0;                              /* only in damaged bits */
    int64_t end = first + run < count ? first + run : count;
    uint64_t rank = calldir_run_rank(lows, low_length, last_word, low_bits, target_low, first, end);
    /* The run goes on past this word only when it filled the word and every part was below. */
    if (rank != (uint64_t)end << 1 || run != 64 - (int64_t)shift || end >= count) return rank;
    position += run;
  }
}

// The body of `calldir_elias_fano_rank`, given the zero searches from the start and from the end
// (processor.h's, compiled alike).
//
// The `high - 1`-th zero ends the offsets of smaller high parts; the run of ones after it is
// searched here (`calldir_run_rank`) when it ends inside the word it was read from and its low
// parts have at most 57 bits; otherwise by `calldir_elias_fano_rank_runs` (low parts of 58 bits
// or more, which no list of phone numbers needs, runs that fill their word, damaged bits).
#define CALLDIR_ELIAS_FANO_RANK_BODY(FORWARD, BACKWARD)                                                  \
  if (count < 0 || low_bits > 62) return 0;                                                          \
  const unsigned char *lows = (const unsigned char *)low, *highs = (const unsigned char *)high;       \
  uint64_t high_part = target >> low_bits;                                                            \
  int64_t position = 0;                                                                               \
  if (high_part > 0) {                                                                                \
    uint64_t bits = (uint64_t)high_length * 8, ones = (uint64_t)count < bits ? (uint64_t)count : bits; \
    uint64_t zeros = bits - ones, rank = high_part - 1;                                               \
    if (rank >= zeros) return (uint64_t)count << 1; /* every offset's high part is below */           \
    int64_t zero = rank < zeros / 2 ? FORWARD(highs, high_length, rank)                               \
                                    : BACKWARD(highs, high_length, zeros - 1 - rank);                 \
    if (zero < 0) return (uint64_t)count << 1; /* only with a wrong count of ones */                  \
    position = zero + 1;                                                                              \
  }                                                                                                   \
  uint64_t target_low = target & ((1ULL << low_bits) - 1);                                            \
  unsigned shift = (unsigned)(position & 7);                                                          \
  uint64_t rest = ~(calldir_word_within(highs, high_length, (uint64_t)position >> 3) >> shift);       \
  int64_t run = rest == 0 ? 64 : __builtin_ctzll(rest);                                               \
  int64_t first = position - (int64_t)high_part;                                                      \
  if (run == 64 - (int64_t)shift || first < 0 || low_bits > 57)                                      \
    return calldir_elias_fano_rank_runs(                                                              \
        lows, low_length, highs, high_length, count, low_bits, target_low, high_part, position);      \
  int64_t end = first + run < count ? first + run : count;                                            \
  return calldir_run_rank(lows, low_length, (int64_t)low_length - 8, low_bits, target_low, first, end);

// `calldir_elias_fano_rank_NAME`, compiled with `ATTRIBUTES` around the zero searches of
// processor.h's compilation NAME, out of line, so that the dispatch below, inlined into its
// callers, is a test and a call; and `calldir_elias_fano_rank_inline_NAME`, the same inline, for
// a caller compiled alike (entry_find.h's warm lookup).
#define CALLDIR_ELIAS_FANO_RANK(NAME, ATTRIBUTES)                                                        \
  ATTRIBUTES __attribute__((always_inline)) static inline uint64_t calldir_elias_fano_rank_inline_##NAME( \
      const void *low, size_t low_length, const void *high, size_t high_length, int64_t count,            \
      unsigned low_bits, uint64_t target) {                                                               \
    CALLDIR_ELIAS_FANO_RANK_BODY(calldir_select_zero_##NAME, calldir_select_zero_backward_##NAME)         \
  }                                                                                                       \
  ATTRIBUTES __attribute__((noinline)) static uint64_t calldir_elias_fano_rank_##NAME(                    \
      const void *low, size_t low_length, const void *high, size_t high_length, int64_t count,            \
      unsigned low_bits, uint64_t target) {                                                               \
    return calldir_elias_fano_rank_inline_##NAME(low, low_length, high, high_length, count, low_bits, target); \
  }

CALLDIR_ELIAS_FANO_RANK(portable, )
#if defined(__x86_64__)
CALLDIR_ELIAS_FANO_RANK(popcnt, __attribute__((target("popcnt"))))
CALLDIR_ELIAS_FANO_RANK(bmi2, __attribute__((target("popcnt,bmi,bmi2"))))
#endif

// The rank of `target` among the `count` offsets of an Elias-Fano code with `low_bits` low bits
// (0 ... 62), its low parts the `low_length` bytes at `low` and its high bits the `high_length`
// bytes at `high`: the number of offsets below `target`, shifted left by one, with the low bit
// set when the next offset equals `target`. A lookup's find is a rank whose low bit is set; a
// range search's count of the boundaries at or below a number is the rank plus that bit. The
// high bits of a valid code hold `count` ones; bytes with another count give some answer, never
// a read outside the two ranges.
__attribute__((always_inline)) static inline uint64_t calldir_elias_fano_rank(
    const void *low, size_t low_length, const void *high, size_t high_length, int64_t count, unsigned low_bits,
    uint64_t target) {
#if defined(__x86_64__)
  int level = calldir_level();
  if (level == CALLDIR_LEVEL_BMI2)
    return calldir_elias_fano_rank_bmi2(low, low_length, high, high_length, count, low_bits, target);
  if (level == CALLDIR_LEVEL_POPCNT)
    return calldir_elias_fano_rank_popcnt(low, low_length, high, high_length, count, low_bits, target);
#endif
  return calldir_elias_fano_rank_portable(low, low_length, high, high_length, count, low_bits, target);
}

#endif
