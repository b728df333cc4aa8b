// memrchr is a GNU extension (glibc and musl have it).
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "ccellstores.h"

#include <string.h>

#if defined(__x86_64__)

#include <cpuid.h>
#include <immintrin.h>

/// Stores `count` (at least 4) cells in blocks of 16, or of 4 below 16, with SIXTEEN and
/// FOUR; the last block overlaps the one before (those cells are written twice) instead of
/// a loop over the few left. A macro, so that each instruction set's functions inline it.
#define STORE_IN_BLOCKS(SIXTEEN, FOUR, bytes, count, vector, cells)                \
    do {                                                                           \
        long offset = 0;                                                           \
        if ((count) >= 16) {                                                       \
            for (; (count) - offset > 16; offset += 16)                            \
                SIXTEEN((bytes) + offset, (vector), (cells) + offset);             \
            SIXTEEN((bytes) + (count) - 16, (vector), (cells) + (count) - 16);     \
        } else {                                                                   \
            for (; (count) - offset > 4; offset += 4)                              \
                FOUR((bytes) + offset, (vector), (cells) + offset);                \
            FOUR((bytes) + (count) - 4, (vector), (cells) + (count) - 4);          \
        }                                                                          \
    } while (0)

bool ccell_avx2_available(void) {
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return false;
    if (!(ecx & bit_OSXSAVE) || !(ecx & bit_AVX)) return false;
    // XCR0 bits 1 and 2: the kernel saves the SSE and AVX state on a switch.
    unsigned low, high;
    __asm__("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
    if ((low & 6) != 6) return false;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
    return (ebx & bit_AVX2) != 0;
}

bool ccell_avx512_available(void) {
    if (!ccell_avx2_available()) return false;
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
    const unsigned needed = bit_AVX512F | bit_AVX512BW | bit_AVX512VL;
    if ((ebx & needed) != needed || !(ecx & bit_AVX512VBMI2)) return false;
    // XCR0 bits 5-7: the kernel saves the mask registers and all of the ZMM registers.
    unsigned low, high;
    __asm__("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
    return (low & 0xE6) == 0xE6;
}

/// Bit i set where bytes[i] is not printable ASCII, for fewer than 64 bytes (only a read
/// that short). Not vectorized: it would be a loop of its own ten registers wide, in the
/// AVX-512 function ZMM16-31 among them, which VZEROUPPER does not clear.
static inline uint64_t unprintable_mask_scalar(const uint8_t *bytes, long count) {
    uint64_t mask = 0;
#pragma clang loop vectorize(disable) interleave(disable)
    for (long i = 0; i < count; i++) mask |= (uint64_t)((uint8_t)(bytes[i] - 0x20) >= 0x5F) << i;
    return mask;
}

/// ccell_line_stops with `mask_of`, which marks the unprintable bytes of 64: a function
/// the caller's instruction set inlines. The last block is the last 64 bytes before `end`,
/// those before the block shifted out, where there are 64.
__attribute__((always_inline)) static inline long
line_stops(const uint8_t *bytes, long start, long end, long *stops, long capacity,
           uint64_t (*mask_of)(const uint8_t *)) {
    long count = 0;
    for (long block = start; block < end; block += 64) {
        long left = end - block;
        uint64_t mask = left >= 64 ? mask_of(bytes + block)
                        : end >= 64 ? mask_of(bytes + end - 64) >> (64 - left)
                                    : unprintable_mask_scalar(bytes + block, left);
        for (; mask != 0; mask &= mask - 1) {
            long at = block + __builtin_ctzll(mask);
            stops[count++] = at;
            if ((bytes[at] != '\r' && bytes[at] != '\n' && bytes[at] != 0x1B) || count == capacity) return count;
        }
    }
    return count;
}

/// Bit i set where bytes[i] (of 32) is printable ASCII.
__attribute__((target("avx2"), always_inline)) static inline uint32_t
printable_mask_avx2(const uint8_t *bytes) {
    // As signed bytes, the printable ones are those above 0x1F and below 0x7F.
    __m256i chunk = _mm256_loadu_si256((const __m256i *)bytes);
    __m256i printable = _mm256_andnot_si256(_mm256_cmpeq_epi8(chunk, _mm256_set1_epi8(0x7F)),
                                            _mm256_cmpgt_epi8(chunk, _mm256_set1_epi8(0x1F)));
    return (uint32_t)_mm256_movemask_epi8(printable);
}

__attribute__((target("avx2"), always_inline)) static inline uint64_t
unprintable_mask_avx2(const uint8_t *bytes) {
    uint64_t printable = printable_mask_avx2(bytes) | (uint64_t)printable_mask_avx2(bytes + 32) << 32;
    return ~printable;
}

__attribute__((target("avx512f,avx512bw"), always_inline)) static inline uint64_t
unprintable_mask_avx512(const uint8_t *bytes) {
    // Printable bytes, less 0x20, are those below 0x5F.
    __m512i shifted = _mm512_sub_epi8(_mm512_loadu_si512(bytes), _mm512_set1_epi8(0x20));
    return _mm512_cmpge_epu8_mask(shifted, _mm512_set1_epi8(0x5F));
}

__attribute__((always_inline)) static inline uint64_t unprintable_mask_sse2(const uint8_t *bytes) {
    const __m128i controls = _mm_set1_epi8(0x1F);
    const __m128i del = _mm_set1_epi8(0x7F);
    uint64_t printable = 0;
    for (int i = 0; i < 4; i++) {
        __m128i chunk = _mm_loadu_si128((const __m128i *)(bytes + 16 * i));
        __m128i lanes = _mm_andnot_si128(_mm_cmpeq_epi8(chunk, del), _mm_cmpgt_epi8(chunk, controls));
        printable |= (uint64_t)(uint16_t)_mm_movemask_epi8(lanes) << (16 * i);
    }
    return ~printable;
}

__attribute__((target("avx2")))
long ccell_line_stops_avx2(const uint8_t *bytes, long start, long end, long *stops, long capacity) {
    return line_stops(bytes, start, end, stops, capacity, unprintable_mask_avx2);
}

__attribute__((target("avx512f,avx512bw")))
long ccell_line_stops_avx512(const uint8_t *bytes, long start, long end, long *stops, long capacity) {
    return line_stops(bytes, start, end, stops, capacity, unprintable_mask_avx512);
}

long ccell_line_stops_sse2(const uint8_t *bytes, long start, long end, long *stops, long capacity) {
    return line_stops(bytes, start, end, stops, capacity, unprintable_mask_sse2);
}

/// Bit i set where bytes[i] (of 64) is `value`.
__attribute__((target("avx2"), always_inline)) static inline uint64_t equal_mask_avx2(const uint8_t *bytes,
                                                                                    uint8_t value) {
    __m256i wanted = _mm256_set1_epi8((char)value);
    uint32_t low = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)bytes), wanted));
    uint32_t high =
        (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(bytes + 32)), wanted));
    return low | (uint64_t)high << 32;
}

__attribute__((target("avx512f,avx512bw"), always_inline)) static inline uint64_t
equal_mask_avx512(const uint8_t *bytes, uint8_t value) {
    return _mm512_cmpeq_epi8_mask(_mm512_loadu_si512(bytes), _mm512_set1_epi8((char)value));
}

__attribute__((always_inline)) static inline uint64_t equal_mask_sse2(const uint8_t *bytes, uint8_t value) {
    const __m128i wanted = _mm_set1_epi8((char)value);
    uint64_t mask = 0;
    for (int i = 0; i < 4; i++) {
        __m128i chunk = _mm_loadu_si128((const __m128i *)(bytes + 16 * i));
        mask |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(chunk, wanted)) << (16 * i);
    }
    return mask;
}

/// ccell_line_ends with the instruction set's masks.
__attribute__((always_inline)) static inline ccell_line_ends
line_ends(const uint8_t *bytes, uint64_t (*unprintable_of)(const uint8_t *),
          uint64_t (*equal_of)(const uint8_t *, uint8_t)) {
    uint64_t returns = equal_of(bytes, '\r');
    uint64_t feeds = equal_of(bytes, '\n');
    if (unprintable_of(bytes) != (returns | feeds)) return (ccell_line_ends){~0ULL, ~0ULL};
    return (ccell_line_ends){returns, feeds};
}

__attribute__((target("avx2"))) ccell_line_ends ccell_line_ends_avx2(const uint8_t *bytes) {
    return line_ends(bytes, unprintable_mask_avx2, equal_mask_avx2);
}

__attribute__((target("avx512f,avx512bw"))) ccell_line_ends ccell_line_ends_avx512(const uint8_t *bytes) {
    return line_ends(bytes, unprintable_mask_avx512, equal_mask_avx512);
}

ccell_line_ends ccell_line_ends_sse2(const uint8_t *bytes) {
    return line_ends(bytes, unprintable_mask_sse2, equal_mask_sse2);
}

__attribute__((target("avx2")))
long ccell_printable_run_end_avx2(const uint8_t *bytes, long start, long end) {
    long offset = start;
    for (; end - offset >= 32; offset += 32) {
        uint32_t stops = ~printable_mask_avx2(bytes + offset);
        if (stops != 0) return offset + __builtin_ctz(stops);
    }
    while (offset < end && (uint8_t)(bytes[offset] - 0x20) < 0x5F) offset++;
    return offset;
}

/// Cells for the four bytes at `bytes`: each zero-extended to 64 bits, or'ed
/// with the style.
__attribute__((target("avx2"), always_inline)) static inline void
store_four(const uint8_t *bytes, __m256i style, uint64_t *cells) {
    int32_t four;
    memcpy(&four, bytes, sizeof four);
    __m256i widened = _mm256_cvtepu8_epi64(_mm_cvtsi32_si128(four));
    _mm256_storeu_si256((__m256i *)cells, _mm256_or_si256(widened, style));
}

__attribute__((target("avx2"), always_inline)) static inline void
store_sixteen(const uint8_t *bytes, __m256i style, uint64_t *cells) {
    store_four(bytes, style, cells);
    store_four(bytes + 4, style, cells + 4);
    store_four(bytes + 8, style, cells + 8);
    store_four(bytes + 12, style, cells + 12);
}

__attribute__((target("avx2")))
void ccell_store_ascii_avx2(const uint8_t *bytes, long count, uint64_t style, uint64_t *cells) {
    const __m256i styles = _mm256_set1_epi64x((long long)style);
    STORE_IN_BLOCKS(store_sixteen, store_four, bytes, count, styles, cells);
}

/// Eight cells a store, each byte zero-extended to 64 bits and or'ed with the style, the
/// last block overlapping the one before. Runs of fewer than 16 (most between sequences)
/// are stored as with AVX2: timed, 512-bit stores made them slower.
__attribute__((target("avx512f,avx512bw,avx512vl")))
void ccell_store_ascii_avx512(const uint8_t *bytes, long count, uint64_t style, uint64_t *cells) {
    if (count < 16) {
        ccell_store_ascii_avx2(bytes, count, style, cells);
        return;
    }
    const __m512i styles = _mm512_set1_epi64((long long)style);
    for (long offset = 0; count - offset > 8; offset += 8) {
        __m512i widened = _mm512_cvtepu8_epi64(_mm_loadl_epi64((const __m128i *)(bytes + offset)));
        _mm512_storeu_si512(cells + offset, _mm512_or_si512(widened, styles));
    }
    __m512i widened = _mm512_cvtepu8_epi64(_mm_loadl_epi64((const __m128i *)(bytes + count - 8)));
    _mm512_storeu_si512(cells + count - 8, _mm512_or_si512(widened, styles));
}

/// Cells for the sixteen bytes at `bytes` with SSE2 (every x86-64 has it): each widened to
/// 32 bits and interleaved with the style id, which is the high half of a cell.
static inline void store_sixteen_sse2(const uint8_t *bytes, __m128i ids, uint64_t *cells) {
    const __m128i zero = _mm_setzero_si128();
    __m128i chunk = _mm_loadu_si128((const __m128i *)bytes);
    __m128i low = _mm_unpacklo_epi8(chunk, zero), high = _mm_unpackhi_epi8(chunk, zero);
    __m128i quarters[4] = {
        _mm_unpacklo_epi16(low, zero), _mm_unpackhi_epi16(low, zero),
        _mm_unpacklo_epi16(high, zero), _mm_unpackhi_epi16(high, zero),
    };
    for (int i = 0; i < 4; i++) {
        _mm_storeu_si128((__m128i *)(cells + 4 * i), _mm_unpacklo_epi32(quarters[i], ids));
        _mm_storeu_si128((__m128i *)(cells + 4 * i + 2), _mm_unpackhi_epi32(quarters[i], ids));
    }
}

static inline void store_four_sse2(const uint8_t *bytes, __m128i ids, uint64_t *cells) {
    const __m128i zero = _mm_setzero_si128();
    int32_t four;
    memcpy(&four, bytes, sizeof four);
    __m128i dwords = _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128(four), zero), zero);
    _mm_storeu_si128((__m128i *)cells, _mm_unpacklo_epi32(dwords, ids));
    _mm_storeu_si128((__m128i *)(cells + 2), _mm_unpackhi_epi32(dwords, ids));
}

void ccell_store_ascii_sse2(const uint8_t *bytes, long count, uint64_t style, uint64_t *cells) {
    const __m128i ids = _mm_set1_epi32((int)(style >> 32));
    STORE_IN_BLOCKS(store_sixteen_sse2, store_four_sse2, bytes, count, ids, cells);
}

#else

bool ccell_avx2_available(void) { return false; }

bool ccell_avx512_available(void) { return false; }

void ccell_store_ascii_avx512(const uint8_t *bytes, long count, uint64_t style, uint64_t *cells) {
    for (long i = 0; i < count; i++) cells[i] = style | bytes[i];
}

void ccell_store_ascii_sse2(const uint8_t *bytes, long count, uint64_t style, uint64_t *cells) {
    for (long i = 0; i < count; i++) cells[i] = style | bytes[i];
}

long ccell_line_stops_sse2(const uint8_t *bytes, long start, long end, long *stops, long capacity) {
    long count = 0;
    for (long at = start; at < end; at++) {
        if ((uint8_t)(bytes[at] - 0x20) < 0x5F) continue;
        stops[count++] = at;
        if ((bytes[at] != '\r' && bytes[at] != '\n' && bytes[at] != 0x1B) || count == capacity) break;
    }
    return count;
}

long ccell_line_stops_avx2(const uint8_t *bytes, long start, long end, long *stops, long capacity) {
    return ccell_line_stops_sse2(bytes, start, end, stops, capacity);
}

long ccell_line_stops_avx512(const uint8_t *bytes, long start, long end, long *stops, long capacity) {
    return ccell_line_stops_sse2(bytes, start, end, stops, capacity);
}

ccell_line_ends ccell_line_ends_sse2(const uint8_t *bytes) {
    ccell_line_ends ends = {0, 0};
    for (int i = 0; i < 64; i++) {
        if (bytes[i] == '\r') ends.returns |= 1ULL << i;
        else if (bytes[i] == '\n') ends.feeds |= 1ULL << i;
        else if ((uint8_t)(bytes[i] - 0x20) >= 0x5F) return (ccell_line_ends){~0ULL, ~0ULL};
    }
    return ends;
}

ccell_line_ends ccell_line_ends_avx2(const uint8_t *bytes) { return ccell_line_ends_sse2(bytes); }

ccell_line_ends ccell_line_ends_avx512(const uint8_t *bytes) { return ccell_line_ends_sse2(bytes); }

long ccell_printable_run_end_avx2(const uint8_t *bytes, long start, long end) {
    while (start < end && (uint8_t)(bytes[start] - 0x20) < 0x5F) start++;
    return start;
}

void ccell_store_ascii_avx2(const uint8_t *bytes, long count, uint64_t style, uint64_t *cells) {
    for (long i = 0; i < count; i++) cells[i] = style | bytes[i];
}

#endif

/// Whether the bytes from `params` (before `end`) are an SGR's parameters and final.
static bool begins_with_sgr(const uint8_t *params, const uint8_t *end) {
    while (params < end && ((*params >= '0' && *params <= '9') || *params == ';' || *params == ':')) params++;
    return params < end && *params == 'm';
}

/// Whether the bytes from `escape` (before `end`) are an SGR that resets the pen first.
static bool is_reset(const uint8_t *escape, const uint8_t *end) {
    if (escape + 2 >= end || escape[1] != '[') return false;
    const uint8_t *params = escape + 2;
    while (params < end && *params == '0') params++;
    return params < end && (*params == 'm' || *params == ';') && begins_with_sgr(params, end);
}

long ccell_last_pen_reset(const uint8_t *bytes, long count, long tries) {
    long reset = count;
    for (long tried = 0; tried < tries; tried++) {
        const uint8_t *escape = memrchr(bytes, 0x1B, (size_t)reset);
        if (escape == NULL) return tried == 0 ? -1 : -2;
        reset = escape - bytes;
        if (is_reset(escape, bytes + count)) return reset;
    }
    return -2;
}
