// A warm lookup whole in C (Spec/FORMAT.md sections 5 to 5.3 and 7): the index levels to the one
// block that can hold a number, the test that the block has passed its checks, the block's frame
// read again, and the Elias-Fano rank of the number inside it, compiled three times as the rank
// is (elias_fano.h), with one frame and no call between the parts. In Swift the same path cost a
// frame per part, an optional test for each view's base address and an overflow test for each
// product the parsers had already bounded (539 instructions a lookup on a million NANP numbers,
// 522 in C; 383 with the cuts the article Performance lists).
//
// Every read stays inside the ranges the plan names, whatever the bytes there hold. The search
// answers only from a block whose bit says it passed its checks; any other block, and one whose
// frame no longer parses or is deflated, goes back to the caller, which checks it and says what
// is wrong.
#ifndef CALLDIR_ENTRY_FIND_H
#define CALLDIR_ENTRY_FIND_H

#include "elias_fano.h"
#include "index_search.h"

// What `calldir_entry_find` found: `block` is `CALLDIR_FOUND` with the entry's label id (0 for a
// blocking entry) in `value`, `CALLDIR_ABSENT` when no entry has the number, or the block (0 or
// more) that can hold it, with the number's offset from the block's first number in `value`, when
// the caller must read that block the checked way.
typedef struct {
  int64_t block;
  uint64_t value;
} calldir_entry_found;

enum { CALLDIR_FOUND = -1, CALLDIR_ABSENT = -2 };

typedef struct calldir_entry_plan calldir_entry_plan;

// A compilation of `calldir_entry_find` (below): the one a plan names, for this processor.
typedef calldir_entry_found (*calldir_entry_finder)(const calldir_entry_plan *plan, uint64_t number);

// What a warm lookup of one kind reads, as addresses in the reader's bytes. A reader makes one a
// kind when it opens, from the index's parsed shape (which checked every range against the file),
// and keeps it, with the bytes and the bits it points to, for its whole life.
struct calldir_entry_plan {
  const unsigned char *records;  // `block_count` index records of 16 bytes
  int64_t block_count;
  const unsigned char *top;      // `top_count` samples of 8 bytes, one a `top_stride` records
  int64_t top_stride, top_count; // a stride of 0 without a top
  const unsigned char *summary;  // the top's summary: one sample a `summary_stride` top samples
  int64_t summary_stride, summary_count;
  int64_t top_gap;               // bytes after each summary group's samples: 4 x summary_stride in a
                                 // checked top (5.5), whose groups carry their checks; 0 in a top
  const unsigned char *data;     // the data section the records' offsets point into
  uint64_t data_length;
  int64_t entries_per_block;     // the most entries a block may hold
  int64_t entry_count;           // every block's entries (version 1's uncounted blocks)
  int counted_blocks;            // version 2: a record's top 16 bits hold its entries less one
  int labelled;                  // identification: blocks carry label ids
  const uint64_t *passed;        // a bit a block, set once it passed its checks; read relaxed
  int64_t passed_count;
  uint64_t offset_mask;          // a record's offset bits: 2^48 - 1 in version 2, all in version 1
  calldir_entry_finder find;     // `calldir_entry_best_finder(labelled)`: chosen once, at open
};

// The parts of a raw entry or range block's payload a search reads.
typedef struct {
  const unsigned char *low, *high, *ids; // the low parts, the high bits, the packed label ids
  size_t low_length, high_length, ids_length;
  int64_t offsets;                       // the offsets after the first number: numbers less one
  unsigned low_bits, label_bits;         // label_bits 0 when the block has no label ids
  uint64_t base_label_id;                // 0 when the block has no label ids
} calldir_raw_block;

// The format's constants (FormatConstants in Swift; LayoutConstantTests holds the two equal).
enum { CALLDIR_BLOCK_HEADER = 4, CALLDIR_BLOCK_TRAILER = 4, CALLDIR_MOST_ENTRIES = 4096 };

// The parts of the raw block of `length` bytes at `bytes` that holds `numbers` numbers (entries,
// or a range block's boundaries) and `label_fields` label ids when `labelled`; 0 when the frame
// does not parse (Spec/FORMAT.md 7: the codec byte, the widths, the parts inside the payload).
// `most_numbers` is 4096 for an entry block, twice that for a range block.
__attribute__((always_inline)) static inline int calldir_raw_block_parse(
    const unsigned char *bytes, size_t length, int64_t numbers, int64_t label_fields, int labelled,
    int64_t most_numbers, calldir_raw_block *parts) {
  if (length < CALLDIR_BLOCK_HEADER + CALLDIR_BLOCK_TRAILER || bytes[0] != 0) return 0;
  uint64_t payload = length - CALLDIR_BLOCK_HEADER - CALLDIR_BLOCK_TRAILER;
  unsigned low_bits = bytes[1], label_bits = bytes[2];
  // A block without label ids has a label width of 0 (in BDAT and BRDT, sections 7 and 10.1).
  if (numbers < 1 || numbers > most_numbers || low_bits > 62 || label_bits > (labelled ? 32u : 0u) ||
      label_fields < 0 || label_fields > numbers)
    return 0;
  // numbers at most 8,192 and widths at most 62: the products are small.
  uint64_t id_bytes = labelled ? 4 + ((uint64_t)label_fields * label_bits + 7) / 8 : 0;
  uint64_t low_bytes = ((uint64_t)(numbers - 1) * low_bits + 7) / 8;
  if (id_bytes + low_bytes > payload) return 0;
  const unsigned char *payload_start = bytes + CALLDIR_BLOCK_HEADER;
  parts->offsets = numbers - 1;
  parts->low_bits = low_bits;
  parts->low = payload_start + id_bytes;
  parts->low_length = low_bytes;
  parts->high = payload_start + id_bytes + low_bytes;
  parts->high_length = payload - id_bytes - low_bytes;
  // A labelled payload starts with its base id (4 bytes), then the packed ids.
  parts->ids = labelled ? payload_start + 4 : payload_start;
  parts->ids_length = labelled ? id_bytes - 4 : 0;
  parts->label_bits = labelled ? label_bits : 0;
  parts->base_label_id = labelled ? (uint64_t)bytes[4] | (uint64_t)bytes[5] << 8 | (uint64_t)bytes[6] << 16 |
                                        (uint64_t)bytes[7] << 24
                                  : 0;
  return 1;
}

// The label id of field `field` of a parsed block (0 when it has no ids); below 2^33.
__attribute__((always_inline)) static inline uint64_t calldir_raw_block_label_id(
    const calldir_raw_block *parts, int64_t field) {
  return parts->base_label_id +
         calldir_field_within(parts->ids, parts->ids_length, (uint64_t)field * parts->label_bits, parts->label_bits);
}

// The last block whose first number is at most `number` (Spec/FORMAT.md 5 to 5.5), or -1. A
// search through a top never compares a group's first record or a part's first sample: the
// sample above it already did, and under group checks those bytes may not be checked yet.
__attribute__((always_inline)) static inline int64_t calldir_entry_block(const calldir_entry_plan *plan, uint64_t number) {
  if (plan->top_stride <= 0) {
    if (plan->block_count <= 0 || calldir_word_le(plan->records) > number) return -1;
    return calldir_last_at_most_prefetching(plan->records, 16, 0, plan->block_count, number);
  }
  int64_t first = 0, length = plan->top_count;
  const unsigned char *samples = plan->top;
  if (plan->summary_stride > 0) {
    if (plan->summary_count <= 0 || calldir_word_le(plan->summary) > number) return -1;
    int64_t group = calldir_last_at_most(plan->summary, 8, 0, plan->summary_count, number);
    first = group * plan->summary_stride;
    length = plan->top_count - first < plan->summary_stride ? plan->top_count - first : plan->summary_stride;
    /* Sample `first` lies `group` gaps past its place in a top: samples + 8 first is its address. */
    samples += group * plan->top_gap;
  } else if (length <= 0 || calldir_word_le(plan->top) > number) {
    return -1;
  }
  if (length <= 0) return -1; /* only with counts the parser refuses */
  first = calldir_last_at_most(samples, 8, first, length, number) * plan->top_stride;
  length = plan->block_count - first < plan->top_stride ? plan->block_count - first : plan->top_stride;
  if (length <= 0) return -1; /* only with counts the parser refuses */
  return calldir_last_at_most_prefetching(plan->records, 16, first, length, number);
}

// The body of `calldir_entry_find`, given the rank of the same compilation (elias_fano.h).
#define CALLDIR_ENTRY_FIND_BODY(RANK)                                                                      \
  int64_t block = calldir_entry_block(plan, number);                                                     \
  if (block < 0) return (calldir_entry_found){CALLDIR_ABSENT, 0};                                        \
  const unsigned char *record = plan->records + block * 16;                                              \
  uint64_t target = number - calldir_word_le(record);                                                    \
  calldir_entry_found check = {block, target};                                                           \
  if (block >= plan->passed_count ||                                                                     \
      !((__atomic_load_n(plan->passed + (block >> 6), __ATOMIC_RELAXED) >> (block & 63)) & 1))           \
    return check;                                                                                         \
  /* The block's extent: its offset to the next block's (or the section's end). */                       \
  const uint64_t offset_mask = plan->offset_mask;                                                         \
  uint64_t field = calldir_word_le(record + 8);                                                           \
  uint64_t start = field & offset_mask;                                                                   \
  uint64_t end = block + 1 < plan->block_count ? calldir_word_le(record + 24) & offset_mask : plan->data_length; \
  int64_t entries = plan->counted_blocks ? (int64_t)(field >> 48) + 1                                    \
                    : plan->entry_count - block * plan->entries_per_block < plan->entries_per_block        \
                        ? plan->entry_count - block * plan->entries_per_block                            \
                        : plan->entries_per_block;                                                        \
  if (start > end || end > plan->data_length || entries > plan->entries_per_block) return check;         \
  const unsigned char *bytes = plan->data + start;                                                        \
  size_t length = (size_t)(end - start);                                                                  \
  /* The frame, the high bits at the block's end and then one low part are read one after another,    \
     each read's place known from the one before: ask for their lines at once, the frame's, the last   \
     three (the high bits of a full block of dense numbers) and, for the low parts, the middle one.    \
     A hint reads nothing and never faults: the last three are addresses computed as integers, which   \
     may lie before a short block, not pointers outside it. */                                         \
  uintptr_t block_end = (uintptr_t)bytes + length;                                                        \
  calldir_prefetch(bytes);                                                                                \
  calldir_prefetch(bytes + (length >> 1));                                                                \
  calldir_prefetch((const void *)(block_end - 192));                                                      \
  calldir_prefetch((const void *)(block_end - 128));                                                      \
  calldir_prefetch((const void *)(block_end - 64));                                                       \
  calldir_raw_block parts;                                                                                \
  if (!calldir_raw_block_parse(bytes, length, entries, entries, labelled, CALLDIR_MOST_ENTRIES, &parts)) \
    return check;                                                                                         \
  int64_t entry = 0; /* the block's first number, at offset 0 */                                        \
  if (target != 0) {                                                                                      \
    uint64_t rank = RANK(parts.low, parts.low_length, parts.high, parts.high_length, parts.offsets,      \
                         parts.low_bits, target);                                                         \
    if (!(rank & 1)) return (calldir_entry_found){CALLDIR_ABSENT, 0};                                    \
    entry = (int64_t)(rank >> 1) + 1;                                                                     \
  }                                                                                                       \
  return (calldir_entry_found){CALLDIR_FOUND, labelled ? calldir_raw_block_label_id(&parts, entry) : 0};

// `calldir_entry_find_NAME`, compiled with `ATTRIBUTES` around the rank of the same compilation,
// once for each kind (`..._blocking_NAME`, `..._labelled_NAME`, which a plan names: a blocking
// block's frame has no label ids to place), and once choosing between the two by the plan.
#define CALLDIR_ENTRY_FIND(NAME, ATTRIBUTES)                                                               \
  ATTRIBUTES __attribute__((always_inline)) static inline calldir_entry_found calldir_entry_find_of_##NAME( \
      const calldir_entry_plan *plan, uint64_t number, const int labelled) {                             \
    CALLDIR_ENTRY_FIND_BODY(calldir_elias_fano_rank_inline_##NAME)                                        \
  }                                                                                                       \
  ATTRIBUTES __attribute__((noinline)) static calldir_entry_found calldir_entry_find_blocking_##NAME(      \
      const calldir_entry_plan *plan, uint64_t number) {                                                  \
    return calldir_entry_find_of_##NAME(plan, number, 0);                                                 \
  }                                                                                                       \
  ATTRIBUTES __attribute__((noinline)) static calldir_entry_found calldir_entry_find_labelled_##NAME(      \
      const calldir_entry_plan *plan, uint64_t number) {                                                  \
    return calldir_entry_find_of_##NAME(plan, number, 1);                                                 \
  }                                                                                                       \
  static inline calldir_entry_found calldir_entry_find_##NAME(                                            \
      const calldir_entry_plan *plan, uint64_t number) {                                                  \
    return plan->labelled ? calldir_entry_find_labelled_##NAME(plan, number)                              \
                          : calldir_entry_find_blocking_##NAME(plan, number);                             \
  }

CALLDIR_ENTRY_FIND(portable, )
#if defined(__x86_64__)
CALLDIR_ENTRY_FIND(popcnt, __attribute__((target("popcnt"))))
CALLDIR_ENTRY_FIND(bmi2, __attribute__((target("popcnt,bmi,bmi2"))))
#endif

// The compilation of `calldir_entry_find` this processor runs best for a plan of the kind
// `labelled` says, for the plan's `find`: no test of the processor or of the kind on each call.
static inline calldir_entry_finder calldir_entry_best_finder(int labelled) {
#if defined(__x86_64__)
  int level = calldir_level();
  if (level == CALLDIR_LEVEL_BMI2)
    return labelled ? calldir_entry_find_labelled_bmi2 : calldir_entry_find_blocking_bmi2;
  if (level == CALLDIR_LEVEL_POPCNT)
    return labelled ? calldir_entry_find_labelled_popcnt : calldir_entry_find_blocking_popcnt;
#endif
  return labelled ? calldir_entry_find_labelled_portable : calldir_entry_find_blocking_portable;
}

// Finds `number` among the entries of the kind `plan` describes, answering only from a block that
// has passed its checks (above), with the compilation the plan names: one indirect call, where a
// test of the processor's level before each call cost a load and two compares. `number` is
// positive: no entry holds another.
__attribute__((always_inline)) static inline calldir_entry_found calldir_entry_find(
    const calldir_entry_plan *plan, uint64_t number) {
  return plan->find(plan, number);
}

#endif
