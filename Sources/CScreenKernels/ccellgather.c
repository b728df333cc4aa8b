// Ground bytes as a binary file printed by mistake has them: short runs of printable
// ASCII between bytes that do nothing to the screen (see ccellstores.h), and two-byte
// UTF-8 characters. Each of those runs and characters, reaching the state alone, would
// cost a run's set-up (the pen's id, the character set, the right edge, the row, its
// wide-character cuts) and the branch on which kind the next byte is, which in such bytes
// the CPU cannot guess; gathered as cells' contents, the state writes them in one run.
// The controls that move the cursor or shift the set are passed, noted among the cells for
// the caller to execute between their runs. The bytes are looked at a block at a time, 16
// bytes with SSE2 and 32 with AVX2 (near the end of the bytes, by two tables of each byte's
// kind, without a branch): masks of what each byte is, the controls and characters among
// them taken in place from the masks, and the printable bytes up to what stops the
// gathering copied a set bit at a time, or with AVX2's shuffle 8 at a time.
#include "ccellstores.h"
#if defined(__x86_64__)
#include <immintrin.h>
#endif

/// Each byte's kind in ground: bit 0 printable ASCII; bits 1 and 2 gathered, bit 1 only
/// when the next byte is a continuation byte (0x80-0xBF), bit 2 only when it is not (a
/// UTF-8 lead, 0xC2-0xF4, is dropped when the next byte cuts its character short; it is
/// gathered only then); bit 3 a control that does nothing but end REP's character (C0 but
/// BS, HT, LF, VT, FF, CR, SO, SI, CAN, SUB and ESC). DEL, CAN, SUB and the bytes that
/// start no character (0x80-0xC1, 0xF5-0xFF) do nothing at all.
static const uint8_t kinds[256] = {
    14, 14, 14, 14, 14, 14, 14, 14,  0,  0,  0,  0,  0,  0,  0,  0,  // 0x00
    14, 14, 14, 14, 14, 14, 14, 14,  6, 14,  6,  0, 14, 14, 14, 14,  // 0x10
     7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  // 0x20
     7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  // 0x30
     7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  // 0x40
     7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  // 0x50
     7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  // 0x60
     7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  7,  6,  // 0x70
     6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  // 0x80
     6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  // 0x90
     6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  // 0xA0
     6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  // 0xB0
     6,  6,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  // 0xC0
     4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  // 0xD0
     4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  4,  // 0xE0
     4,  4,  4,  4,  4,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  6,  // 0xF0
};

/// The bit of `kinds` that gathers a byte followed by this one: 2 after a continuation
/// byte, else 6 (either).
static const uint8_t gathered_before[256] = {
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,  // 0x00
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,  // 0x10
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,  // 0x20
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,  // 0x30
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,  // 0x40
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,  // 0x50
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,  // 0x60
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,  // 0x70
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,  // 0x80
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,  // 0x90
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,  // 0xA0
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,  // 0xB0
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,  // 0xC0
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,  // 0xD0
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,  // 0xE0
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,  // 0xF0
};

/// What a block of bytes holds, a bit for each (byte i in bit i): of the bytes `kinds` and
/// `gathered_before` stop at, `controls` (BS to SI), `twos` and `longs` (the leads of two-
/// and of three- or four-byte characters, 0xC2-0xDF and 0xE0-0xF4, followed by a
/// continuation byte: the byte after the block is read too) and `escapes`; and `printable`,
/// printable ASCII. A block's controls, two-byte characters and longer ones cut short or
/// malformed are taken in place, without a step of their own: in binary bytes one of them
/// comes every 12 bytes or so, and what stops a gathering every 100.
typedef struct {
    uint32_t controls, twos, longs, escapes, printable;
} block_masks;

#if defined(__x86_64__)
/// The masks of the 16 bytes at `bytes` (SSE2).
static inline __attribute__((always_inline)) block_masks masks16(const uint8_t *bytes) {
    __m128i here = _mm_loadu_si128((const __m128i *)bytes);
    __m128i next = _mm_loadu_si128((const __m128i *)(bytes + 1));
    // Unsigned ranges as signed comparisons: moved so that the range starts at -128.
    __m128i controls = _mm_cmplt_epi8(_mm_sub_epi8(here, _mm_set1_epi8((char)(0x08 + 0x80))),
                                      _mm_set1_epi8((char)(0x80 + 8)));
    __m128i lead = _mm_sub_epi8(here, _mm_set1_epi8((char)(0xC2 + 0x80)));
    // 0x80-0xBF are the signed bytes below -64.
    __m128i continuations = _mm_cmplt_epi8(next, _mm_set1_epi8(-64));
    __m128i leads = _mm_and_si128(_mm_cmplt_epi8(lead, _mm_set1_epi8((char)(0x80 + 0x33))), continuations);
    uint32_t twos = (uint32_t)_mm_movemask_epi8(
        _mm_and_si128(_mm_cmplt_epi8(lead, _mm_set1_epi8((char)(0x80 + 0x1E))), continuations));
    return (block_masks){(uint32_t)_mm_movemask_epi8(controls), twos, (uint32_t)_mm_movemask_epi8(leads) & ~twos,
                         (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(here, _mm_set1_epi8(0x1B))),
                         ~ccell_unprintable_mask16(bytes) & 0xFFFF};
}

/// The masks of the 32 bytes at `bytes` (AVX2): the same, a step for twice the bytes.
__attribute__((target("avx2"), always_inline)) static inline block_masks masks32_avx2(const uint8_t *bytes) {
    __m256i here = _mm256_loadu_si256((const __m256i *)bytes);
    __m256i next = _mm256_loadu_si256((const __m256i *)(bytes + 1));
    __m256i controls = _mm256_cmpgt_epi8(_mm256_set1_epi8((char)(0x80 + 8)),
                                         _mm256_sub_epi8(here, _mm256_set1_epi8((char)(0x08 + 0x80))));
    __m256i lead = _mm256_sub_epi8(here, _mm256_set1_epi8((char)(0xC2 + 0x80)));
    __m256i continuations = _mm256_cmpgt_epi8(_mm256_set1_epi8(-64), next);
    __m256i leads = _mm256_and_si256(_mm256_cmpgt_epi8(_mm256_set1_epi8((char)(0x80 + 0x33)), lead), continuations);
    uint32_t twos = (uint32_t)_mm256_movemask_epi8(
        _mm256_and_si256(_mm256_cmpgt_epi8(_mm256_set1_epi8((char)(0x80 + 0x1E)), lead), continuations));
    // Moved by 0x60, printable bytes are the signed ones below -33.
    __m256i unprintable = _mm256_cmpgt_epi8(_mm256_add_epi8(here, _mm256_set1_epi8(0x60)), _mm256_set1_epi8(-34));
    return (block_masks){(uint32_t)_mm256_movemask_epi8(controls), twos,
                         (uint32_t)_mm256_movemask_epi8(leads) & ~twos,
                         (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(here, _mm256_set1_epi8(0x1B))),
                         ~(uint32_t)_mm256_movemask_epi8(unprintable)};
}
#else
static inline block_masks masks16(const uint8_t *bytes) {
    block_masks masks = {0, 0, 0, 0, 0};
    for (int i = 0; i < 16; i++) {
        uint8_t byte = bytes[i];
        bool lead = (bytes[i + 1] & 0xC0) == 0x80 && (uint8_t)(byte - 0xC2) < 0x33;
        masks.controls |= (uint32_t)((uint8_t)(byte - 0x08) < 8) << i;
        masks.twos |= (uint32_t)(lead && byte < 0xE0) << i;
        masks.longs |= (uint32_t)(lead && byte >= 0xE0) << i;
        masks.escapes |= (uint32_t)(byte == 0x1B) << i;
        masks.printable |= (uint32_t)(kinds[byte] & 1) << i;
    }
    return masks;
}
#endif

/// Copies the bytes of the block at `block` that `printable` picks (bit i for block[i]) to
/// `text` at `count`; returns the new count. One set bit at a time, as SSE2 has no shuffle:
/// in binary bytes, 6 of 16 are printable.
static inline __attribute__((always_inline)) long copy_printable_sse2(const uint8_t *block, uint32_t printable,
                                                                    uint16_t *text, long count) {
    for (; printable; printable &= printable - 1) text[count++] = block[__builtin_ctz(printable)];
    return count;
}

#if defined(__x86_64__)
/// For each 8-bit mask, the offsets of its set bits in order, a byte each: the shuffle that
/// packs the bytes it picks to the front. A constant, so that loading the program does no
/// work for it; made by this Python, its output set four to a line:
///   for mask in range(256):
///       offsets = [bit for bit in range(8) if mask >> bit & 1]
///       print('0x%016xull,' % sum(bit << 8 * i for i, bit in enumerate(offsets)))
static const uint64_t left_pack[256] = {
    0x0000000000000000ull, 0x0000000000000000ull, 0x0000000000000001ull, 0x0000000000000100ull,
    0x0000000000000002ull, 0x0000000000000200ull, 0x0000000000000201ull, 0x0000000000020100ull,
    0x0000000000000003ull, 0x0000000000000300ull, 0x0000000000000301ull, 0x0000000000030100ull,
    0x0000000000000302ull, 0x0000000000030200ull, 0x0000000000030201ull, 0x0000000003020100ull,
    0x0000000000000004ull, 0x0000000000000400ull, 0x0000000000000401ull, 0x0000000000040100ull,
    0x0000000000000402ull, 0x0000000000040200ull, 0x0000000000040201ull, 0x0000000004020100ull,
    0x0000000000000403ull, 0x0000000000040300ull, 0x0000000000040301ull, 0x0000000004030100ull,
    0x0000000000040302ull, 0x0000000004030200ull, 0x0000000004030201ull, 0x0000000403020100ull,
    0x0000000000000005ull, 0x0000000000000500ull, 0x0000000000000501ull, 0x0000000000050100ull,
    0x0000000000000502ull, 0x0000000000050200ull, 0x0000000000050201ull, 0x0000000005020100ull,
    0x0000000000000503ull, 0x0000000000050300ull, 0x0000000000050301ull, 0x0000000005030100ull,
    0x0000000000050302ull, 0x0000000005030200ull, 0x0000000005030201ull, 0x0000000503020100ull,
    0x0000000000000504ull, 0x0000000000050400ull, 0x0000000000050401ull, 0x0000000005040100ull,
    0x0000000000050402ull, 0x0000000005040200ull, 0x0000000005040201ull, 0x0000000504020100ull,
    0x0000000000050403ull, 0x0000000005040300ull, 0x0000000005040301ull, 0x0000000504030100ull,
    0x0000000005040302ull, 0x0000000504030200ull, 0x0000000504030201ull, 0x0000050403020100ull,
    0x0000000000000006ull, 0x0000000000000600ull, 0x0000000000000601ull, 0x0000000000060100ull,
    0x0000000000000602ull, 0x0000000000060200ull, 0x0000000000060201ull, 0x0000000006020100ull,
    0x0000000000000603ull, 0x0000000000060300ull, 0x0000000000060301ull, 0x0000000006030100ull,
    0x0000000000060302ull, 0x0000000006030200ull, 0x0000000006030201ull, 0x0000000603020100ull,
    0x0000000000000604ull, 0x0000000000060400ull, 0x0000000000060401ull, 0x0000000006040100ull,
    0x0000000000060402ull, 0x0000000006040200ull, 0x0000000006040201ull, 0x0000000604020100ull,
    0x0000000000060403ull, 0x0000000006040300ull, 0x0000000006040301ull, 0x0000000604030100ull,
    0x0000000006040302ull, 0x0000000604030200ull, 0x0000000604030201ull, 0x0000060403020100ull,
    0x0000000000000605ull, 0x0000000000060500ull, 0x0000000000060501ull, 0x0000000006050100ull,
    0x0000000000060502ull, 0x0000000006050200ull, 0x0000000006050201ull, 0x0000000605020100ull,
    0x0000000000060503ull, 0x0000000006050300ull, 0x0000000006050301ull, 0x0000000605030100ull,
    0x0000000006050302ull, 0x0000000605030200ull, 0x0000000605030201ull, 0x0000060503020100ull,
    0x0000000000060504ull, 0x0000000006050400ull, 0x0000000006050401ull, 0x0000000605040100ull,
    0x0000000006050402ull, 0x0000000605040200ull, 0x0000000605040201ull, 0x0000060504020100ull,
    0x0000000006050403ull, 0x0000000605040300ull, 0x0000000605040301ull, 0x0000060504030100ull,
    0x0000000605040302ull, 0x0000060504030200ull, 0x0000060504030201ull, 0x0006050403020100ull,
    0x0000000000000007ull, 0x0000000000000700ull, 0x0000000000000701ull, 0x0000000000070100ull,
    0x0000000000000702ull, 0x0000000000070200ull, 0x0000000000070201ull, 0x0000000007020100ull,
    0x0000000000000703ull, 0x0000000000070300ull, 0x0000000000070301ull, 0x0000000007030100ull,
    0x0000000000070302ull, 0x0000000007030200ull, 0x0000000007030201ull, 0x0000000703020100ull,
    0x0000000000000704ull, 0x0000000000070400ull, 0x0000000000070401ull, 0x0000000007040100ull,
    0x0000000000070402ull, 0x0000000007040200ull, 0x0000000007040201ull, 0x0000000704020100ull,
    0x0000000000070403ull, 0x0000000007040300ull, 0x0000000007040301ull, 0x0000000704030100ull,
    0x0000000007040302ull, 0x0000000704030200ull, 0x0000000704030201ull, 0x0000070403020100ull,
    0x0000000000000705ull, 0x0000000000070500ull, 0x0000000000070501ull, 0x0000000007050100ull,
    0x0000000000070502ull, 0x0000000007050200ull, 0x0000000007050201ull, 0x0000000705020100ull,
    0x0000000000070503ull, 0x0000000007050300ull, 0x0000000007050301ull, 0x0000000705030100ull,
    0x0000000007050302ull, 0x0000000705030200ull, 0x0000000705030201ull, 0x0000070503020100ull,
    0x0000000000070504ull, 0x0000000007050400ull, 0x0000000007050401ull, 0x0000000705040100ull,
    0x0000000007050402ull, 0x0000000705040200ull, 0x0000000705040201ull, 0x0000070504020100ull,
    0x0000000007050403ull, 0x0000000705040300ull, 0x0000000705040301ull, 0x0000070504030100ull,
    0x0000000705040302ull, 0x0000070504030200ull, 0x0000070504030201ull, 0x0007050403020100ull,
    0x0000000000000706ull, 0x0000000000070600ull, 0x0000000000070601ull, 0x0000000007060100ull,
    0x0000000000070602ull, 0x0000000007060200ull, 0x0000000007060201ull, 0x0000000706020100ull,
    0x0000000000070603ull, 0x0000000007060300ull, 0x0000000007060301ull, 0x0000000706030100ull,
    0x0000000007060302ull, 0x0000000706030200ull, 0x0000000706030201ull, 0x0000070603020100ull,
    0x0000000000070604ull, 0x0000000007060400ull, 0x0000000007060401ull, 0x0000000706040100ull,
    0x0000000007060402ull, 0x0000000706040200ull, 0x0000000706040201ull, 0x0000070604020100ull,
    0x0000000007060403ull, 0x0000000706040300ull, 0x0000000706040301ull, 0x0000070604030100ull,
    0x0000000706040302ull, 0x0000070604030200ull, 0x0000070604030201ull, 0x0007060403020100ull,
    0x0000000000070605ull, 0x0000000007060500ull, 0x0000000007060501ull, 0x0000000706050100ull,
    0x0000000007060502ull, 0x0000000706050200ull, 0x0000000706050201ull, 0x0000070605020100ull,
    0x0000000007060503ull, 0x0000000706050300ull, 0x0000000706050301ull, 0x0000070605030100ull,
    0x0000000706050302ull, 0x0000070605030200ull, 0x0000070605030201ull, 0x0007060503020100ull,
    0x0000000007060504ull, 0x0000000706050400ull, 0x0000000706050401ull, 0x0000070605040100ull,
    0x0000000706050402ull, 0x0000070605040200ull, 0x0000070605040201ull, 0x0007060504020100ull,
    0x0000000706050403ull, 0x0000070605040300ull, 0x0000070605040301ull, 0x0007060504030100ull,
    0x0000070605040302ull, 0x0007060504030200ull, 0x0007060504030201ull, 0x0706050403020100ull,
};

/// The same with a shuffle (SSSE3, which every CPU with AVX2 has) 8 bytes at a time, without
/// a branch for each byte, for a block of 32; it writes up to 8 contents past the new count.
__attribute__((target("avx2,popcnt"), always_inline)) static inline long
copy_printable_avx2(const uint8_t *block, uint32_t printable, uint16_t *text, long count) {
    for (int half = 0; half < 2; half++, block += 16, printable >>= 16) {
        __m128i chunk = _mm_loadu_si128((const __m128i *)block);
        __m128i low = _mm_shuffle_epi8(chunk, _mm_cvtsi64_si128((long long)left_pack[printable & 0xFF]));
        _mm_storeu_si128((__m128i *)(text + count), _mm_cvtepu8_epi16(low));
        count += __builtin_popcount(printable & 0xFF);
        __m128i high =
            _mm_shuffle_epi8(_mm_srli_si128(chunk, 8), _mm_cvtsi64_si128((long long)left_pack[printable >> 8 & 0xFF]));
        _mm_storeu_si128((__m128i *)(text + count), _mm_cvtepu8_epi16(high));
        count += __builtin_popcount(printable >> 8 & 0xFF);
    }
    return count;
}
#endif

/// The two-byte character whose lead is at `lead`.
static inline __attribute__((always_inline)) uint32_t two_byte_scalar(const uint8_t *lead) {
    return (uint32_t)(lead[0] & 0x1F) << 6 | (lead[1] & 0x3F);
}

/// What the lead of three or four bytes (0xE0-0xF4) at `at` begins, before `end`: 0 for a
/// character the state prints, or one cut short by the end of the bytes (which the caller
/// keeps open), either of which stops the gathering; else how many bytes are dropped, a
/// character cut short by another byte (up to that byte) or malformed (an overlong form, a
/// surrogate, past U+10FFFF), none of them printable or a stop.
static inline __attribute__((always_inline)) long longer_character(const uint8_t *bytes, long at, long end) {
    uint8_t lead = bytes[at];
    long length = lead < 0xF0 ? 3 : 4;
    long index = 1;
    while (index < length && at + index < end && (bytes[at + index] & 0xC0) == 0x80) index++;
    if (index < length) return at + index == end ? 0 : index;
    // Complete: the second byte tells an overlong form (after 0xE0 or 0xF0), a surrogate
    // (after 0xED) or a scalar past U+10FFFF (after 0xF4).
    uint8_t second = bytes[at + 1];
    bool malformed = (lead == 0xE0 && second < 0xA0) || (lead == 0xED && second >= 0xA0) ||
                     (lead == 0xF0 && second < 0x90) || (lead == 0xF4 && second >= 0x90);
    return malformed ? length : 0;
}

/// The gathering (ccell_gather_text_sse2 and _avx2), in the form `masks` and `copy` make
/// it, `block` bytes a step (each a constant in its form, and inlined there: AVX2's
/// instructions cannot be inlined into code built for SSE2).
static inline __attribute__((always_inline)) long gather(
    const uint8_t *bytes, long start, long end, uint16_t *text, long capacity, const uint8_t *widths,
    uint32_t *breaks, long break_capacity, long *break_count, long *count, int *control, long block,
    block_masks (*masks)(const uint8_t *), long (*copy)(const uint8_t *, uint32_t, uint16_t *, long)) {
    // The last byte is left to the caller: a lead there may be completed by the next read.
    // Bytes are looked at only before `limit`, and each cell takes one at least: at most
    // `capacity` cells.
    long offset = start, gathered = 0;
    long limit = end - 1 < start + capacity ? end - 1 : start + capacity;
    long passed = 0;
    const uint32_t whole = block == 32 ? 0xFFFFFFFFu : 0xFFFFu;
    // The contents of a block's two-byte characters of one column, by their leads' place.
    uint16_t characters[32];
    for (;;) {
        // A block a step while the byte after it is there: its controls noted, its two-byte
        // characters of one column taken as cells, and its printable bytes and those cells
        // copied, up to the first other stop.
        bool stopped = false;
        while (offset + block <= limit) {
            block_masks found = masks(bytes + offset);
            uint32_t before = found.escapes ? (found.escapes & -found.escapes) - 1 : whole;
            // A longer character cut short or malformed is dropped (no byte it takes is
            // printable or a stop), the bytes after it taken on; another stops the gathering.
            long resume = offset;
            for (uint32_t longs = found.longs & before; longs; longs &= longs - 1) {
                int at = __builtin_ctz(longs);
                long dropped = longer_character(bytes, offset + at, end);
                if (!dropped) {
                    before = (1u << at) - 1;
                    break;
                }
                resume = offset + at + dropped;
            }
            // The first control without room to be noted stops the gathering.
            uint32_t noted = found.controls & before;
            if (passed + __builtin_popcount(noted) > break_capacity) {
                uint32_t unnoted = noted;
                for (long room = break_capacity - passed; room > 0; room--) unnoted &= unnoted - 1;
                before = (unnoted & -unnoted) - 1;
            }
            // A two-byte character of one column is a cell; one without a cell (C1) is
            // passed; a combining mark or a wide one, the state's, stops the gathering.
            uint32_t cells = 0;
            for (uint32_t twos = found.twos & before; twos; twos &= twos - 1) {
                int at = __builtin_ctz(twos);
                uint32_t scalar = two_byte_scalar(bytes + offset + at);
                uint8_t width = widths[scalar - 0x80];
                if (width == 1) {
                    cells |= 1u << at;
                    characters[at] = (uint16_t)scalar;
                } else if (width != 3) {
                    before = (1u << at) - 1;
                    break;
                }
            }
            noted = found.controls & before;
            uint32_t taken = (found.printable & before) | cells;
            for (; noted; noted &= noted - 1) {
                int at = __builtin_ctz(noted);
                uint32_t cells_before = (uint32_t)(gathered + __builtin_popcount(taken & ((1u << at) - 1)));
                breaks[passed++] = cells_before << 8 | bytes[offset + at];
            }
            // The leads are copied with the printable bytes, then written over.
            long copied = copy(bytes + offset, taken, text, gathered);
            for (; cells; cells &= cells - 1) {
                int at = __builtin_ctz(cells);
                text[gathered + __builtin_popcount(taken & ((1u << at) - 1))] = characters[at];
            }
            gathered = copied;
            if (before != whole) {
                offset += __builtin_ctz(~before);
                stopped = true;
                break;
            }
            // Past the block, or past a character that ends after it.
            if ((found.twos & before) >> (block - 1)) resume = offset + block + 1;
            offset += block;
            if (offset < resume) offset = resume;
        }
        while (!stopped && offset < limit) {
            uint8_t byte = bytes[offset];
            unsigned kind = kinds[byte];
            if (!(kind & gathered_before[bytes[offset + 1]] & 6)) break;
            text[gathered] = byte;
            gathered += kind & 1;
            offset++;
        }
        if (offset >= limit) break;
        if ((uint8_t)(bytes[offset] - 0x08) < 8) {
            // BS, HT, LF, VT, FF, CR, SO or SI: noted with the cells before it, for the
            // caller to tell the state between them. In binary bytes one comes every 32
            // bytes; stopping at each cost a gathering's set-up.
            if (passed == break_capacity) break;
            breaks[passed++] = (uint32_t)gathered << 8 | bytes[offset++];
            continue;
        }
        if (bytes[offset] < 0xC2) break;
        // A lead followed by a continuation byte (which is why the gathering stopped at it,
        // before `limit`, so before the last byte).
        uint8_t lead = bytes[offset];
        if (lead < 0xE0) {
            // A two-byte character, complete. CharacterWidth's value: 1 a cell; not
            // printable (3: U+0080-U+009F) no cell; a combining mark (0) or a wide one is
            // the state's.
            uint32_t scalar = two_byte_scalar(bytes + offset);
            uint8_t width = widths[scalar - 0x80];
            if (width == 1) {
                text[gathered++] = (uint16_t)scalar;
            } else if (width != 3) {
                break;
            }
            offset += 2;
            continue;
        }
        // Three or four bytes: a character cut short or malformed is dropped, and the
        // gathering goes on after it; another stops it.
        long dropped = longer_character(bytes, offset, end);
        if (!dropped) break;
        offset += dropped;
    }
    // The last byte of the bytes, if it is not a lead.
    if (offset == end - 1 && offset < start + capacity && (kinds[bytes[offset]] & 2)) {
        text[gathered] = bytes[offset];
        gathered += kinds[bytes[offset]] & 1;
        offset++;
    }
    // What ends REP's character matters only after the last cell: a control, or a
    // character that takes no cell (U+0080-U+009F), found back from the end up to the
    // last cell, control passed or two-byte character (a lead of one before a
    // continuation byte is one: the gathering takes every such pair), which tell it.
    int quiet = -1;
    for (long back = offset - 1; back >= start; back--) {
        uint8_t byte = bytes[back];
        if (kinds[byte] & 8) {
            quiet = byte;
            break;
        }
        if (kinds[byte] & 1 || (uint8_t)(byte - 0x08) < 8) break;
        if ((byte & 0xC0) == 0x80 && back > start && (uint8_t)(bytes[back - 1] - 0xC2) < 0x1E) {
            uint32_t scalar = two_byte_scalar(bytes + back - 1);
            if (widths[scalar - 0x80] == 3) quiet = (int)scalar;
            break;
        }
    }
    *break_count = passed;
    *count = gathered;
    *control = quiet;
    return offset;
}

long ccell_gather_text_sse2(const uint8_t *bytes, long start, long end, uint16_t *text, long capacity,
                            const uint8_t *widths, uint32_t *breaks, long break_capacity, long *break_count,
                            long *count, int *control) {
    return gather(bytes, start, end, text, capacity, widths, breaks, break_capacity, break_count, count, control, 16,
                  masks16, copy_printable_sse2);
}

#if defined(__x86_64__)
__attribute__((target("avx2,popcnt"))) long ccell_gather_text_avx2(const uint8_t *bytes, long start, long end,
                                                                  uint16_t *text, long capacity,
                                                                  const uint8_t *widths, uint32_t *breaks,
                                                                  long break_capacity, long *break_count,
                                                                  long *count, int *control) {
    return gather(bytes, start, end, text, capacity, widths, breaks, break_capacity, break_count, count, control, 32,
                  masks32_avx2, copy_printable_avx2);
}
#else
long ccell_gather_text_avx2(const uint8_t *bytes, long start, long end, uint16_t *text, long capacity,
                            const uint8_t *widths, uint32_t *breaks, long break_capacity, long *break_count,
                            long *count, int *control) {
    return ccell_gather_text_sse2(bytes, start, end, text, capacity, widths, breaks, break_capacity, break_count,
                                  count, control);
}
#endif

#if defined(__x86_64__)
/// Four contents widened to 32 bits, as cells with `ids` (the style id, the high half of a
/// cell), at `cells`.
static inline __attribute__((always_inline)) void store_four(__m128i dwords, __m128i ids, uint64_t *cells) {
    _mm_storeu_si128((__m128i *)cells, _mm_unpacklo_epi32(dwords, ids));
    _mm_storeu_si128((__m128i *)(cells + 2), _mm_unpackhi_epi32(dwords, ids));
}
#endif

void ccell_store_text(const uint16_t *text, long count, uint64_t style, uint64_t *cells) {
#if defined(__x86_64__)
    // Eight cells a step, the last eight overlapping the ones before; fewer than eight as
    // two overlapping fours. In binary bytes a run is a dozen cells or so.
    const __m128i zero = _mm_setzero_si128(), ids = _mm_set1_epi32((int)(style >> 32));
    if (count < 8) {
        store_four(_mm_unpacklo_epi16(_mm_loadl_epi64((const __m128i *)text), zero), ids, cells);
        long last = count - 4;
        store_four(_mm_unpacklo_epi16(_mm_loadl_epi64((const __m128i *)(text + last)), zero), ids, cells + last);
        return;
    }
    for (long offset = 0;; offset += 8) {
        if (count - offset < 8) offset = count - 8;
        __m128i contents = _mm_loadu_si128((const __m128i *)(text + offset));
        store_four(_mm_unpacklo_epi16(contents, zero), ids, cells + offset);
        store_four(_mm_unpackhi_epi16(contents, zero), ids, cells + offset + 4);
        if (offset + 8 >= count) break;
    }
#else
    for (long i = 0; i < count; i++) cells[i] = style | text[i];
#endif
}
