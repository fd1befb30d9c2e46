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

// The last of the keys `base ... base + length - 1` at most `number`, given that key `base` is
// (or `base` when none is past it). Key `i` is the little-endian u64 at `keys + i * stride`.
// Precondition: `length >= 1`, and the keys of the range lie inside the caller's bytes.
__attribute__((always_inline)) static inline int64_t calldir_last_at_most(
    const unsigned char *keys, int64_t stride, int64_t base, int64_t length, uint64_t number) {
  while (length > 1) {
    int64_t half = length >> 1;
    uint64_t key = calldir_word_le(keys + (base + half) * stride);
    base = __builtin_unpredictable(key <= number) ? base + half : base;
    length -= half;
  }
  return base;
}

// `calldir_last_at_most` over keys that may not be in cache. Without a branch the processor
// cannot run ahead of a probe, so each step would wait for the one before: while the range spans
// more than two lines, the lines of both next probes (one of them is the next step's) are asked
// for first.
__attribute__((always_inline)) static inline int64_t calldir_last_at_most_prefetching(
    const unsigned char *keys, int64_t stride, int64_t base, int64_t length, uint64_t number) {
  while (length > 8) {
    int64_t half = length >> 1, quarter = (length - half) >> 1;
    calldir_prefetch(keys + (base + quarter) * stride);
    calldir_prefetch(keys + (base + half + quarter) * stride);
    uint64_t key = calldir_word_le(keys + (base + half) * stride);
    base = __builtin_unpredictable(key <= number) ? base + half : base;
    length -= half;
  }
  return calldir_last_at_most(keys, stride, base, length, number);
}

#endif
