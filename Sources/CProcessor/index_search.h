// The searches of the index levels (Spec/FORMAT.md sections 5, 5.1 and 5.3): the last key at or
// below a number among ascending keys laid a fixed number of bytes apart, halving without a
// branch on the keys. In C, where the compiler keeps a conditional move it is told is
// unpredictable: a step is a load, a comparison and a move, where Swift, which turns a select
// inside a loop back into a branch, needed a mask of four more instructions.
//
// Over keys that do not ascend (a damaged index) the answer is some key of the range, never a
// read outside it; the reader checks an index's CRC before it answers from it.
#ifndef CALLDIR_INDEX_SEARCH_H
#define CALLDIR_INDEX_SEARCH_H

#include "processor.h"

// One step: the key `step` past `base` replaces it when it is at most `number`. The searches
// move `at`, `base`'s byte offset, so that a step's address is one addition of a constant (x86
// cannot scale an index by 16 inside an address).
#define CALLDIR_STEP(step)                                                                    \
  do {                                                                                        \
    int64_t next = at + (step) * stride;                                                      \
    at = __builtin_unpredictable(calldir_word_le(keys + next) <= number) ? next : at;         \
  } while (0)

// A step over keys that may not be in cache: while the `2 * step` keys left span more than two
// lines (`lines` keys), the lines of both probes that can follow it (one of them will) are asked
// for first, so that the processor need not wait for each probe before it fetches the next.
#define CALLDIR_PREFETCHING_STEP(step)                                          \
  do {                                                                          \
    if ((step) >= 2 && 2 * (step) > lines) {                                    \
      calldir_prefetch(keys + at + (step) / 2 * stride);                        \
      calldir_prefetch(keys + at + ((step) + (step) / 2) * stride);             \
    }                                                                           \
    CALLDIR_STEP(step);                                                         \
  } while (0)

// Before the first step, of `first` keys, with `p` keys left after it: the lines of both probes
// that can follow, as `CALLDIR_PREFETCHING_STEP` asks for them.
#define CALLDIR_HINT_FIRST(first, p)                                            \
  do {                                                                          \
    if ((p) >= 2 && (p) > lines) {                                              \
      calldir_prefetch(keys + at + (p) / 2 * stride);                           \
      calldir_prefetch(keys + at + ((first) + (p) / 2) * stride);               \
    }                                                                           \
  } while (0)
#define CALLDIR_NO_HINT(first, p) \
  do {                            \
  } while (0)

// The steps of 2^(k-1), ..., 2, 1 past `base` (`STEP`, one of the two above), unrolled: a switch
// on `k` (at most 15) jumps into the sequence, so that a step is an address, a comparison and a
// move, where a loop adds the halving, its test and its branch. The jump goes to the same place
// for every lookup through one level of one file, and is predicted.
#define CALLDIR_STEPS_BELOW(k, STEP) \
  switch (k) {                       \
  case 15: STEP(16384);              \
  case 14: STEP(8192);               \
  case 13: STEP(4096);               \
  case 12: STEP(2048);               \
  case 11: STEP(1024);               \
  case 10: STEP(512);                \
  case 9: STEP(256);                 \
  case 8: STEP(128);                 \
  case 7: STEP(64);                  \
  case 6: STEP(32);                  \
  case 5: STEP(16);                  \
  case 4: STEP(8);                   \
  case 3: STEP(4);                   \
  case 2: STEP(2);                   \
  case 1: STEP(1);                   \
  default: break;                    \
  }

// The last of the keys `base ... base + length - 1` at most `number`, given that key `base` is
// (or `base` when none is past it), each later step taken by `STEP` and the first preceded by
// `HINT_FIRST`. Key `i` is the little-endian u64 at `keys + i * stride`.
//
// With `p = 2^k` the largest power of two below `length`, the first step compares the key
// `length - p` past `base`: the answer then lies in the `p` keys from `base`, which steps of
// p/2, ..., 1 search (a loop down to 2^15, then the unrolled steps). Every key read lies in the
// range; over keys that do not ascend `base` still only moves to a key at most `number`.
#define CALLDIR_LAST_AT_MOST_BODY(STEP, HINT_FIRST)                                         \
  if (length <= 1) return base;                                                             \
  int64_t at = base * stride;                                                               \
  unsigned k = 63 - (unsigned)__builtin_clzll((uint64_t)(length - 1)); /* p = 2^k < length */ \
  HINT_FIRST(length - ((int64_t)1 << k), (int64_t)1 << k);                                  \
  CALLDIR_STEP(length - ((int64_t)1 << k));                                                 \
  for (; k > 15; k--) STEP((int64_t)1 << (k - 1));                                          \
  CALLDIR_STEPS_BELOW(k, STEP)                                                              \
  return at >> __builtin_ctzll((uint64_t)stride);

// The last of the keys `base ... base + length - 1` at most `number`, given that key `base` is
// (or `base` when none is past it). Key `i` is the little-endian u64 at `keys + i * stride`.
// Precondition: `length >= 1`, `stride` a power of two (8 for a top's samples, 16 for an index's
// records), and the keys of the range lie inside the caller's bytes.
__attribute__((always_inline)) static inline int64_t calldir_last_at_most(
    const unsigned char *keys, int64_t stride, int64_t base, int64_t length, uint64_t number) {
  CALLDIR_LAST_AT_MOST_BODY(CALLDIR_STEP, CALLDIR_NO_HINT)
}

// `calldir_last_at_most` over keys that may not be in cache (`CALLDIR_PREFETCHING_STEP`).
__attribute__((always_inline)) static inline int64_t calldir_last_at_most_prefetching(
    const unsigned char *keys, int64_t stride, int64_t base, int64_t length, uint64_t number) {
  const int64_t lines = stride >= 128 ? 1 : 128 / stride; /* the keys two lines hold */
  CALLDIR_LAST_AT_MOST_BODY(CALLDIR_PREFETCHING_STEP, CALLDIR_HINT_FIRST)
}

#endif
