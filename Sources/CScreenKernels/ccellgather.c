// Ground bytes as a binary file printed by mistake has them: short runs of printable
// ASCII between bytes that do nothing to the screen (see ccellstores.h), and two-byte
// UTF-8 characters. Each of those runs and characters, reaching the state alone, would
// cost a run's set-up (the pen's id, the character set, the right edge, the row, its
// wide-character cuts) and the branch on which kind the next byte is, which in such bytes
// the CPU cannot guess; gathered as cells' contents, the state writes them in one run.
// The controls that move the cursor or shift the set are passed, noted among the cells for
// the caller to execute between their runs. Where the gathering stops is found 16 bytes at
// a step (SSE2), near the end of the bytes by two tables of each byte's kind, without a
// branch; the printable bytes before it are copied a set bit at a time, or with AVX2's
// shuffle 8 at a time.
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

/// A bit for each of the 16 bytes at `bytes` that stops the gathering or that it passes
/// only after noting it (byte i in bit i):
/// BS, HT, LF, VT, FF, CR, SO, SI and ESC, and a UTF-8 lead (0xC2-0xF4) followed by a
/// continuation byte, which may begin a character (the byte after the 16 is read too). The
/// same bytes as `kinds` and `gathered_before` stop at, 16 at a step: in binary bytes a
/// gathering runs over a dozen bytes or so, and the tables cost a dozen instructions each.
#if defined(__x86_64__)
static inline uint32_t stop_mask16(const uint8_t *bytes) {
    __m128i here = _mm_loadu_si128((const __m128i *)bytes);
    __m128i next = _mm_loadu_si128((const __m128i *)(bytes + 1));
    // Unsigned ranges as signed comparisons: moved so that the range starts at -128.
    __m128i low = _mm_sub_epi8(here, _mm_set1_epi8((char)(0x08 + 0x80)));
    __m128i controls = _mm_or_si128(_mm_cmplt_epi8(low, _mm_set1_epi8((char)(0x80 + 8))),
                                    _mm_cmpeq_epi8(here, _mm_set1_epi8(0x1B)));
    __m128i lead = _mm_sub_epi8(here, _mm_set1_epi8((char)(0xC2 + 0x80)));
    __m128i leads = _mm_cmplt_epi8(lead, _mm_set1_epi8((char)(0x80 + 0x33)));
    // 0x80-0xBF are the signed bytes below -64.
    __m128i continuations = _mm_cmplt_epi8(next, _mm_set1_epi8(-64));
    return (uint32_t)_mm_movemask_epi8(_mm_or_si128(controls, _mm_and_si128(leads, continuations)));
}
#else
static inline uint32_t stop_mask16(const uint8_t *bytes) {
    uint32_t mask = 0;
    for (int i = 0; i < 16; i++) mask |= (uint32_t)!(kinds[bytes[i]] & gathered_before[bytes[i + 1]] & 6) << i;
    return mask;
}
#endif

/// A bit for each of the 16 bytes at `bytes` that is printable ASCII.
static inline uint32_t printable_mask16(const uint8_t *bytes) {
    return ~ccell_unprintable_mask16(bytes) & 0xFFFF;
}

/// Copies the bytes of the 16 at `block` that `printable` picks (bit i for block[i]) to
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
/// a branch for each byte; it writes up to 8 contents past the new count.
__attribute__((target("avx2,popcnt"), always_inline)) static inline long
copy_printable_avx2(const uint8_t *block, uint32_t printable, uint16_t *text, long count) {
    __m128i chunk = _mm_loadu_si128((const __m128i *)block);
    __m128i low = _mm_shuffle_epi8(chunk, _mm_cvtsi64_si128((long long)left_pack[printable & 0xFF]));
    _mm_storeu_si128((__m128i *)(text + count), _mm_cvtepu8_epi16(low));
    count += __builtin_popcount(printable & 0xFF);
    __m128i high = _mm_shuffle_epi8(_mm_srli_si128(chunk, 8), _mm_cvtsi64_si128((long long)left_pack[printable >> 8]));
    _mm_storeu_si128((__m128i *)(text + count), _mm_cvtepu8_epi16(high));
    return count + __builtin_popcount(printable >> 8);
}
#endif

/// The printable bytes from `offset` on copied to `text` (at `*gathered`) by `copy`, up to
/// the first byte before `limit` that stops the gathering; returns its offset, or `limit`
/// (or the offset given, when that is past it). `copy` is a constant in each form, and
/// inlined there: the AVX2 form's shuffle cannot be inlined into code built for SSE2.
static inline __attribute__((always_inline)) long gather_to_stop(
    const uint8_t *bytes, long offset, long limit, uint16_t *text, long *gathered,
    long (*copy)(const uint8_t *, uint32_t, uint16_t *, long)) {
    long count = *gathered;
    // 16 bytes a step while the byte after them is there: the stop found by a mask, and
    // the printable bytes before it copied.
    while (offset + 16 <= limit) {
        uint32_t stops = stop_mask16(bytes + offset);
        uint32_t before = stops ? (stops & -stops) - 1 : 0xFFFF;
        count = copy(bytes + offset, printable_mask16(bytes + offset) & before, text, count);
        if (stops) {
            *gathered = count;
            return offset + __builtin_ctz(stops);
        }
        offset += 16;
    }
    while (offset < limit) {
        uint8_t byte = bytes[offset];
        unsigned kind = kinds[byte];
        if (!(kind & gathered_before[bytes[offset + 1]] & 6)) break;
        text[count] = byte;
        count += kind & 1;
        offset++;
    }
    *gathered = count;
    return offset;
}

/// The gathering (ccell_gather_text_sse2 and _avx2), in the form `copy` makes it.
static inline __attribute__((always_inline)) long gather(
    const uint8_t *bytes, long start, long end, uint16_t *text, long capacity, const uint8_t *widths,
    uint32_t *breaks, long break_capacity, long *break_count, long *count, int *control,
    long (*copy)(const uint8_t *, uint32_t, uint16_t *, long)) {
    // The last byte is left to the caller: a lead there may be completed by the next read.
    // Bytes are looked at only before `limit`, and each cell takes one at least: at most
    // `capacity` cells.
    long offset = start, gathered = 0;
    long limit = end - 1 < start + capacity ? end - 1 : start + capacity;
    // Where the last character that ends REP's character ended, and what to tell the state
    // of it when nothing printable came after it: -1 for a cell (the cell tells it).
    long after_character = start;
    int character_control = -1;
    long passed = 0;
    for (;;) {
        offset = gather_to_stop(bytes, offset, limit, text, &gathered, copy);
        if (offset >= limit) break;
        if ((uint8_t)(bytes[offset] - 0x08) < 8) {
            // BS, HT, LF, VT, FF, CR, SO or SI: noted with the cells before it, for the
            // caller to tell the state between them. In binary bytes one comes every 32
            // bytes; stopping at each cost a gathering's set-up. It ends REP's character:
            // what came before it needs no telling.
            if (passed == break_capacity) break;
            breaks[passed++] = (uint32_t)gathered << 8 | bytes[offset];
            after_character = ++offset;
            character_control = -1;
            continue;
        }
        if (bytes[offset] < 0xC2) break;
        // A lead followed by a continuation byte (which is why the gathering stopped at it,
        // before `limit`, so before the last byte).
        uint8_t lead = bytes[offset];
        if (lead < 0xE0) {
            // A two-byte character, complete. CharacterWidth's value: 1 a cell; not
            // printable (3: U+0080-U+009F) no cell, but it ends REP's character; a
            // combining mark (0) or a wide one is the state's.
            uint32_t scalar = (uint32_t)(lead & 0x1F) << 6 | (bytes[offset + 1] & 0x3F);
            uint8_t width = widths[scalar - 0x80];
            if (width == 1) {
                text[gathered++] = (uint16_t)scalar;
                character_control = -1;
            } else if (width == 3) {
                character_control = (int)scalar;
            } else {
                break;
            }
            offset += 2;
            after_character = offset;
            continue;
        }
        // Three or four bytes: complete or cut short.
        long length = lead < 0xF0 ? 3 : 4;
        uint32_t scalar = lead & (0x7F >> length);
        long index = 1;
        for (; index < length && offset + index < end && (bytes[offset + index] & 0xC0) == 0x80; index++)
            scalar = scalar << 6 | (bytes[offset + index] & 0x3F);
        if (index < length) {
            // Cut short by the end of the bytes: left to the caller, which keeps it open.
            if (offset + index == end) break;
            // Cut short by another byte: dropped, and the gathering goes on at that byte.
            offset += index;
            continue;
        }
        if ((length == 3 && scalar >= 0x800 && (scalar < 0xD800 || scalar > 0xDFFF)) ||
            (length == 4 && scalar >= 0x10000 && scalar <= 0x10FFFF)) {
            break;  // a character of three or four bytes: the state's
        }
        // Malformed (an overlong form, a surrogate, past U+10FFFF): dropped.
        offset += length;
    }
    // The last byte of the bytes, if it is not a lead.
    if (offset == end - 1 && offset < start + capacity && (kinds[bytes[offset]] & 2)) {
        text[gathered] = bytes[offset];
        gathered += kinds[bytes[offset]] & 1;
        offset++;
    }
    // What ends REP's character matters only after the last cell: a control, or a
    // character that takes no cell.
    int quiet = -1;
    long back = offset - 1;
    for (; back >= after_character && !(kinds[bytes[back]] & 1); back--) {
        if (kinds[bytes[back]] & 8) {
            quiet = bytes[back];
            break;
        }
    }
    if (back < after_character) quiet = character_control;
    *break_count = passed;
    *count = gathered;
    *control = quiet;
    return offset;
}

long ccell_gather_text_sse2(const uint8_t *bytes, long start, long end, uint16_t *text, long capacity,
                            const uint8_t *widths, uint32_t *breaks, long break_capacity, long *break_count,
                            long *count, int *control) {
    return gather(bytes, start, end, text, capacity, widths, breaks, break_capacity, break_count, count, control,
                  copy_printable_sse2);
}

#if defined(__x86_64__)
__attribute__((target("avx2,popcnt"))) long ccell_gather_text_avx2(const uint8_t *bytes, long start, long end,
                                                                  uint16_t *text, long capacity,
                                                                  const uint8_t *widths, uint32_t *breaks,
                                                                  long break_capacity, long *break_count,
                                                                  long *count, int *control) {
    return gather(bytes, start, end, text, capacity, widths, breaks, break_capacity, break_count, count, control,
                  copy_printable_avx2);
}
#else
long ccell_gather_text_avx2(const uint8_t *bytes, long start, long end, uint16_t *text, long capacity,
                            const uint8_t *widths, uint32_t *breaks, long break_capacity, long *break_count,
                            long *count, int *control) {
    return ccell_gather_text_sse2(bytes, start, end, text, capacity, widths, breaks, break_capacity, break_count,
                                  count, control);
}
#endif

void ccell_store_text(const uint16_t *text, long count, uint64_t style, uint64_t *cells) {
#if defined(__x86_64__)
    // Four cells a store pair: each content widened to 32 bits and interleaved with the
    // style id, the high half of a cell; the last four overlapping the ones before.
    const __m128i zero = _mm_setzero_si128(), ids = _mm_set1_epi32((int)(style >> 32));
    for (long offset = 0;; offset += 4) {
        if (count - offset < 4) offset = count - 4;
        __m128i dwords = _mm_unpacklo_epi16(_mm_loadl_epi64((const __m128i *)(text + offset)), zero);
        _mm_storeu_si128((__m128i *)(cells + offset), _mm_unpacklo_epi32(dwords, ids));
        _mm_storeu_si128((__m128i *)(cells + offset + 2), _mm_unpackhi_epi32(dwords, ids));
        if (offset + 4 >= count) break;
    }
#else
    for (long i = 0; i < count; i++) cells[i] = style | text[i];
#endif
}
