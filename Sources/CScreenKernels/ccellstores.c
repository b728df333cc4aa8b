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
    if (!__get_cpuid(0x80000001, &eax, &ebx, &ecx, &edx) || !(ecx & bit_LZCNT)) return false;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
    const unsigned needed = bit_AVX2 | bit_BMI | bit_BMI2;
    return (ebx & needed) == needed;
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
    // Plus one, the printable bytes (0x20-0x7E) are 0x21-0x7F, as signed bytes those above
    // 0x20: one compare.
    __m256i chunk = _mm256_add_epi8(_mm256_loadu_si256((const __m256i *)bytes), _mm256_set1_epi8(1));
    return (uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(chunk, _mm256_set1_epi8(0x20)));
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

/// The first `count` (below 64) of the 8 bytes at `bytes`, as a little-endian word, with
/// BMI2's BZHI, which reads the low byte of its bit count: all 8 for counts of 8 to 31 and
/// 40 to 63, but the first count - 32 for counts of 32 to 39 (none for 32).
__attribute__((target("bmi2"), always_inline)) static inline uint64_t low_bytes_bmi2(const uint8_t *bytes,
                                                                                  long count) {
    uint64_t word;
    memcpy(&word, bytes, 8);
    return _bzhi_u64(word, (unsigned)(8 * count));
}

/// The bits below bit `count` (at most 64), with BMI2's BZHI.
__attribute__((target("bmi2"), always_inline)) static inline uint64_t bits_below_bmi2(long count) {
    return _bzhi_u64(~0ULL, (unsigned)count);
}

#define WALK_BLOCKS_FORM(FORM, TARGET, BIT_FORM)                                                           \
    TARGET void ccell_walk_blocks_##FORM(const uint8_t *bytes, long end, ccell_text_walk *walk,            \
                                         const ccell_block_setting *setting) {                           \
        const struct block_ops ops = {unprintable_mask_##FORM, equal_mask_##FORM, low_bytes##BIT_FORM,     \
                                      bits_below##BIT_FORM};                                               \
        if (setting->newline)                                                                              \
            walk_blocks(bytes, end, walk, setting, true, ops);                                             \
        else                                                                                               \
            walk_blocks(bytes, end, walk, setting, false, ops);                                            \
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

static uint64_t mask_where(const uint8_t *bytes, bool (*is)(uint8_t, uint8_t), uint8_t value) {
    uint64_t mask = 0;
    for (int i = 0; i < 64; i++) mask |= (uint64_t)is(bytes[i], value) << i;
    return mask;
}

static bool is_unprintable(uint8_t byte, uint8_t unused) { return (uint8_t)(byte - 0x20) >= 0x5F; }
static bool is_equal(uint8_t byte, uint8_t value) { return byte == value; }
static uint64_t unprintable_mask_plain(const uint8_t *bytes) { return mask_where(bytes, is_unprintable, 0); }
static uint64_t equal_mask_plain(const uint8_t *bytes, uint8_t value) { return mask_where(bytes, is_equal, value); }

#define WALK_BLOCKS_FORM(FORM, TARGET, BIT_FORM)                                                           \
    void ccell_walk_blocks_##FORM(const uint8_t *bytes, long end, ccell_text_walk *walk,                   \
                                  const ccell_block_setting *setting) {                                  \
        const struct block_ops ops = {unprintable_mask_plain, equal_mask_plain, low_bytes, bits_below};    \
        if (setting->newline)                                                                              \
            walk_blocks(bytes, end, walk, setting, true, ops);                                             \
        else                                                                                               \
            walk_blocks(bytes, end, walk, setting, false, ops);                                            \
    }

long ccell_printable_run_end_avx2(const uint8_t *bytes, long start, long end) {
    while (start < end && (uint8_t)(bytes[start] - 0x20) < 0x5F) start++;
    return start;
}

void ccell_store_ascii_avx2(const uint8_t *bytes, long count, uint64_t style, uint64_t *cells) {
    for (long i = 0; i < count; i++) cells[i] = style | bytes[i];
}

#endif

/// The first `count` of the 8 bytes at `bytes`, as a little-endian word: all 8 for a count
/// of 8 or more.
static inline uint64_t low_bytes(const uint8_t *bytes, long count) {
    uint64_t word;
    memcpy(&word, bytes, 8);
    return count >= 8 ? word : word & ((1ULL << (8 * count)) - 1);
}

/// The bits below bit `count` (at most 64).
static inline uint64_t bits_below(long count) { return count >= 64 ? ~0ULL : (1ULL << count) - 1; }

/// The lowest set bit's position, 64 if none.
static inline long lowest_bit(uint64_t bits) { return bits ? __builtin_ctzll(bits) : 64; }

/// What a walk over blocks does with the instruction set's own instructions: the masks of
/// 64 bytes that are not printable ASCII and that are a byte, a word of the first bytes
/// of 8 (low_bytes), the bits below a bit (bits_below).
struct block_ops {
    uint64_t (*unprintable)(const uint8_t *);
    uint64_t (*equal)(const uint8_t *, uint8_t);
    uint64_t (*low_bytes)(const uint8_t *, long);
    uint64_t (*below)(long);
};

/// The position of the set bit of `bits` that has `index` set bits below it (there is
/// one): `index` on by the clear bits up to it, counted again until no more come (a round
/// for each run of clear bits passed: the SGRs between characters).
__attribute__((always_inline)) static inline long position_of_set_bit(uint64_t bits, long index,
                                                                      const struct block_ops ops) {
    long position = index;
    for (;;) {
        long next = index + __builtin_popcountll(~bits & ops.below(position + 1));
        if (next == position) return position;
        position = next;
    }
}

/// Whether the `count` bytes from `params` (after `ESC [`) are an SGR the walk over
/// blocks goes over: parameters and `m`, as ScreenStateWalkedRendition.swift's walk
/// takes them (codes below 1000, at most 8, no 38, 48 or 58), and no code that sets a
/// background (40-47, 100-107), which the blocks never walk over.
static bool is_walked_rendition(const uint8_t *params, long count) {
    unsigned code = 0;
    int codes = 0;
    for (long i = 0; i < count; i++) {
        uint8_t byte = params[i];
        if ((uint8_t)(byte - '0') < 10) {
            code = code * 10 + (byte - '0');
            if (code >= 1000) return false;
        } else if (byte == ';' || byte == 'm') {
            if (++codes > 8) return false;
            if (code == 38 || code == 48 || code == 58 || (code >= 40 && code <= 47) ||
                (code >= 100 && code <= 107))
                return false;
            if (byte == 'm') return i == count - 1;
            code = 0;
        } else {
            return false;
        }
    }
    return false;
}

/// The key the SGR at `escape` is seen by: its bytes from `[` to `m`, which is `count`
/// bytes on (2 to 8; the 8 bytes from `[` are read).
__attribute__((always_inline)) static inline uint64_t rendition_key_of(const uint8_t *escape, long count) {
    uint64_t key;
    memcpy(&key, escape + 1, 8);
    return key & ~0ULL >> (64 - 8 * count);
}

/// The key of the SGR at `escape` whose `m` is `count` bytes on, if it has one (8 bytes at
/// most, and 9 bytes from `escape` before `end`); 0 if not.
static inline uint64_t rendition_key(const uint8_t *escape, long count, const uint8_t *end) {
    return count > 8 || escape + 9 > end ? 0 : rendition_key_of(escape, count);
}

/// Where the SGR of `key` is kept among those seen.
static inline uint64_t *rendition_slot(uint64_t key, uint64_t *seen) {
    return &seen[(key * 0x9E3779B97F4A7C15ULL) >> (64 - CCELL_RENDITIONS_SEEN_BITS)];
}

/// Notes the SGR at `escape` (its `m` `count` bytes on) among those seen if the blocks go
/// over it and it has a key; whether it did.
__attribute__((noinline)) static bool learn_rendition(const uint8_t *escape, long count, const uint8_t *end,
                                                      uint64_t *seen) {
    uint64_t key = rendition_key(escape, count, end);
    if (key == 0 || escape[1] != '[' || !is_walked_rendition(escape + 2, count - 1)) return false;
    *rendition_slot(key, seen) = key;
    return true;
}

/// What a block step may take of the 64 bytes at a block (the cursor aside): `taken`, the
/// bytes before the first that is not printable ASCII, a return or a line feed, or before
/// the first SGR that does not end in the block or is not among those seen; the masks of
/// their returns, line feeds and characters (the bytes in no SGR), and of their line
/// feeds and escapes (`stops`). `unseen` is where an SGR that ends in the block but is not
/// among those seen begins (-1 if none), `unseenFinal` where it ends.
struct block_take {
    uint64_t returns, feeds, characters, stops;
    long taken, unseen, unseenFinal;
};

/// The block step's take of the 64 bytes at `bytes` (before `end`, fewer than 73 bytes on
/// when `nearEnd`), looking its SGRs up among those `seen` (every SGR ends the take when
/// `seen` is NULL).
__attribute__((always_inline)) static inline struct block_take
take_block(const uint8_t *bytes, const uint8_t *end, bool nearEnd, const uint64_t *seen,
           const struct block_ops ops) {
    uint64_t unprintable = ops.unprintable(bytes);
    uint64_t cr = ops.equal(bytes, '\r'), lf = ops.equal(bytes, '\n');
    uint64_t others = unprintable & ~(cr | lf);
    struct block_take take = {.taken = 64, .unseen = -1};
    uint64_t sequences = 0, escapesTaken = 0;
    if (others) {
        uint64_t escapes = seen ? ops.equal(bytes, 0x1B) : 0;
        take.taken = lowest_bit(others & ~escapes);
        escapes &= ops.below(take.taken);
        // The take ends at the first escape whose key's 8 bytes are not all before `end`.
        if (nearEnd) {
            uint64_t unkeyed = escapes & ~ops.below(end - bytes - 8);
            if (unkeyed) {
                take.taken = __builtin_ctzll(unkeyed);
                escapes &= ops.below(take.taken);
            }
        }
        if (escapes) {
            uint64_t finals = ops.equal(bytes, 'm');
            // The finals of the SGRs taken: their masks made in one subtraction after.
            uint64_t all = escapes, ends = 0;
            for (; escapes; escapes &= escapes - 1) {
                long escape = __builtin_ctzll(escapes);
                long final = lowest_bit(finals & ~3ULL << escape);
                if (__builtin_expect(final >= take.taken, 0)) break;
                // An SGR of more than 8 bytes from `[` to `m` has a key without its `m`
                // (BZHI's keeps fewer bytes for some), which no slot holds.
                uint64_t key = ops.low_bytes(bytes + escape + 1, final - escape);
                if (__builtin_expect(*rendition_slot(key, (uint64_t *)seen) != key, 0)) break;
                ends |= 1ULL << final;
            }
            // `escapes` holds the first SGR not taken and those after it: one that ends in
            // the take was not seen (the caller learns it, or the take ends before it).
            if (escapes) {
                long escape = __builtin_ctzll(escapes);
                long final = lowest_bit(finals & ~3ULL << escape);
                if (final < take.taken) {
                    take.unseen = escape;
                    take.unseenFinal = final;
                }
                take.taken = escape;
            }
            escapesTaken = all ^ escapes;
            // From each escape taken to its final: 2 << final less 1 << escape, summed.
            sequences = (ends << 1) - escapesTaken;
        }
    }
    uint64_t kept = ops.below(take.taken);
    take.returns = cr & kept;
    take.feeds = lf & kept;
    take.characters = ~(unprintable | sequences) & kept;
    take.stops = take.feeds | escapesTaken;
    return take;
}

/// The bits of `bits` after its highest set bit's: all of them when none is set.
static inline uint64_t after_highest_bit(uint64_t bits, uint64_t of) {
    return bits ? (of >> (63 - __builtin_clzll(bits))) >> 1 : of;
}

/// What ccell_walk_blocks keeps in registers from its setting, read once (the line starts'
/// stores would make the compiler read them again a block).
struct block_walk_setting {
    long columns, stop;
    ccell_line_start *starts;
    long ring, stream_offset;
    unsigned long generation;
};

/// Moves the cursor (`x`, `row`) over the step's bytes from `block`, `count`
/// characters before the first reset (a return, or a line feed in newline mode), the
/// character at `margin` reaching the right margin (-1: a wrap pending before the block)
/// and the one at `wrap` wrapping (64 for none), `afterWrap` characters from it on; notes
/// where the last line feed left it. False, moving nothing, when the step would enter row
/// `stop`.
__attribute__((always_inline)) static inline bool
advance(const struct block_take *take, const struct block_walk_setting *setting, bool newline, long block,
        long count, long margin, long wrap, long afterWrap, long *x, long *row) {
    const uint64_t feeds = take->feeds, characters = take->characters;
    const uint64_t resets = newline ? take->returns | feeds : take->returns;
    long feedCount = __builtin_popcountll(feeds);
    long rowsEntered = feedCount + (wrap < 64);
    if (*row + rowsEntered >= setting->stop) return false;
    if (feeds) {
        long lastFeed = 63 - __builtin_clzll(feeds);
        uint64_t before = characters & ((1ULL << lastFeed) - 1);
        uint64_t returnsBefore = take->returns & ((1ULL << lastFeed) - 1);
        long xAfter = newline         ? 0
                      : returnsBefore ? __builtin_popcountll(after_highest_bit(returnsBefore, before))
                      : wrap < lastFeed ? __builtin_popcountll(before >> wrap)
                      : margin < lastFeed ? setting->columns - 1
                                          : *x + __builtin_popcountll(before);
        long feedRow = *row + feedCount + (wrap < lastFeed);
        setting->starts[feedRow & setting->ring] = (ccell_line_start){
            setting->stream_offset + block + lastFeed + 1, xAfter, feedRow, setting->generation};
    }
    *row += rowsEntered;
    if (resets) {
        *x = __builtin_popcountll(after_highest_bit(resets, characters));
    } else if (wrap < 64) {
        *x = afterWrap;
    } else if (margin < 64) {
        // At the margin: a wrap pends if a character came after the last line feed (else
        // as it did before the block, when none came).
        uint64_t moves = characters | feeds;
        if (moves) *x = setting->columns - 1 + ((characters >> (63 - __builtin_clzll(moves))) & 1);
    } else {
        *x += count;
    }
    return true;
}

/// ccell_walk_blocks with the instruction set's masks, in or out of newline mode. Only
/// the characters before a block's first return (or line feed, in newline mode) can reach
/// the right margin, at most once: fewer than `columns` follow a return. From the one that
/// does (`margin`), each character stays in the last column while a line feed comes before
/// it (a line feed ends the pending wrap, not the column: `yes` without its returns), and
/// the first that comes straight after a character, SGRs between them or not, wraps: the
/// characters from it on go on from column 0 of the next row. The steps that reach no
/// margin (most) move the cursor by code of their own, where the margin's terms are known.
__attribute__((always_inline)) static inline void
walk_blocks(const uint8_t *bytes, long end, ccell_text_walk *walk, const ccell_block_setting *given,
            const bool newline, const struct block_ops ops) {
    const struct block_walk_setting setting = {given->columns,           given->stop,         given->starts,
                                               given->starts_kept - 1,   given->stream_offset, given->generation};
    uint64_t *const seen = given->renditions_seen;
    const long columns = setting.columns;
    long block = walk->offset, row = walk->row;
    // The column, one more (`columns`) while a wrap is pending: the steps that reach no
    // margin are those whose characters leave it below `columns`.
    long x = walk->x + walk->pending_wrap;
    long sparse = 0, learnt = -1;
    walk->sparse = false;
    for (const long last = end - 64, keyedLast = end - 73; block <= last;) {
        struct block_take take = take_block(bytes + block, bytes + end, block > keyedLast, seen, ops);
        // An SGR not seen before: the block again once it is learnt (out of the loop's way),
        // once a block (two that share a slot would take turns in it for ever).
        if (take.unseen >= 0 && block != learnt &&
            learn_rendition(bytes + block + take.unseen, take.unseenFinal - take.unseen, bytes + end, seen)) {
            learnt = block;
            continue;
        }
        if (take.taken == 0) break;

        uint64_t resets = newline ? take.returns | take.feeds : take.returns;
        uint64_t first = take.characters & (resets ^ (resets - 1));
        long count = __builtin_popcountll(first);
        if (x + count < columns) {
            if (!advance(&take, &setting, newline, block, count, 64, 64, 0, &x, &row)) break;
        } else {
            const bool pending = x == columns;
            // Where a character reaches the margin (-1 for a wrap pending before the block)
            // and the first that wraps: 64 for none.
            long margin = pending ? -1 : position_of_set_bit(first, columns - 1 - x, ops);
            // The bytes whose last byte before them that is in no SGR is a character.
            uint64_t follows = take.characters << 1 | (pending ? 1 : 0);
            uint64_t sequences = ~(take.characters | take.returns | take.feeds) & ops.below(take.taken);
            uint64_t afterCharacter = (follows & ~sequences) | ((sequences + (follows & sequences)) ^ sequences);
            uint64_t fromMargin = pending ? ~0ULL : (~0ULL << margin) << 1;
            long wrap = lowest_bit(first & afterCharacter & fromMargin);
            long afterWrap = wrap < 64 ? __builtin_popcountll(first >> wrap) : 0;
            // 64 characters from column 0 of a screen 64 wide would reach the margin again.
            if (afterWrap >= columns) break;
            if (!advance(&take, &setting, newline, block, count, margin, wrap, afterWrap, &x, &row))
                break;
        }
        block += take.taken;
        if (__builtin_popcountll(take.stops) >= CCELL_DENSE_BLOCK_STOPS) {
            sparse = 0;
        } else if (++sparse == CCELL_SPARSE_BLOCKS) {
            walk->sparse = true;
            break;
        }
    }
    walk->offset = block;
    walk->x = x - (x == columns);
    walk->row = row;
    walk->pending_wrap = x == columns;
}

WALK_BLOCKS_FORM(sse2, , )
WALK_BLOCKS_FORM(avx2, __attribute__((target("avx2,popcnt,bmi,bmi2,lzcnt"))), _bmi2)
WALK_BLOCKS_FORM(avx512, __attribute__((target("avx512f,avx512bw,popcnt,bmi,bmi2,lzcnt"))), _bmi2)

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
