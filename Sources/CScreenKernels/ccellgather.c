// Ground bytes as a binary file printed by mistake has them: short runs of printable
// ASCII between bytes that do nothing to the screen (see ccellstores.h). Each of those
// runs, reaching the state alone, would cost a run's set-up (the pen's id, the character
// set, the right edge, the row, its wide-character cuts) and the branch on which kind the
// next byte is, which in such bytes the CPU cannot guess; gathered, the state writes them
// in one run. Where the gathering stops is found 16 bytes at a step (SSE2), near the end
// of the bytes by two tables of each byte's kind, without a branch.
#include "ccellstores.h"

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

/// A bit for each of the 16 bytes at `bytes` that stops the gathering (byte i in bit i):
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

long ccell_gather_text(const uint8_t *bytes, long start, long end, uint8_t *text, long capacity,
                       long *count, int *control) {
    // The last byte is left to the caller: a lead there may be completed by the next read.
    // At most `capacity` bytes, so at most as many printable ones.
    long offset = start, gathered = 0;
    long stop = end - 1 < start + capacity ? end - 1 : start + capacity;
    // 16 bytes a step while the byte after them is there: the stop found by a mask, and
    // the printable bytes before it copied one set bit at a time.
    while (offset + 16 <= stop) {
        uint32_t stops = stop_mask16(bytes + offset);
        uint32_t before = stops ? (stops & -stops) - 1 : 0xFFFF;
        for (uint32_t printable = printable_mask16(bytes + offset) & before; printable; printable &= printable - 1)
            text[gathered++] = bytes[offset + __builtin_ctz(printable)];
        if (stops) {
            offset += __builtin_ctz(stops);
            stop = offset;
            break;
        }
        offset += 16;
    }
    while (offset < stop) {
        uint8_t byte = bytes[offset];
        unsigned kind = kinds[byte];
        if (!(kind & gathered_before[bytes[offset + 1]] & 6)) break;
        text[gathered] = byte;
        gathered += kind & 1;
        offset++;
    }
    // The last byte of the bytes, if it is not a lead.
    if (offset == end - 1 && offset < start + capacity && (kinds[bytes[offset]] & 2)) {
        text[gathered] = bytes[offset];
        gathered += kinds[bytes[offset]] & 1;
        offset++;
    }
    // The controls that end REP's character matter only after the last printable byte.
    int quiet = -1;
    for (long back = offset - 1; back >= start && !(kinds[bytes[back]] & 1); back--) {
        if (kinds[bytes[back]] & 8) {
            quiet = bytes[back];
            break;
        }
    }
    *count = gathered;
    *control = quiet;
    return offset;
}
