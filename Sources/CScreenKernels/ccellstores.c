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

#define WALK_BLOCKS_FORM(FORM, TARGET)                                                                     \
    TARGET void ccell_walk_blocks_##FORM(const uint8_t *bytes, long end, ccell_text_walk *walk,            \
                                         const ccell_block_setting *setting) {                           \
        walk_blocks(bytes, end, walk, setting, unprintable_mask_##FORM, equal_mask_##FORM);                    \
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

#define WALK_BLOCKS_FORM(FORM, TARGET)                                                                     \
    void ccell_walk_blocks_##FORM(const uint8_t *bytes, long end, ccell_text_walk *walk,                   \
                                  const ccell_block_setting *setting) {                                  \
        walk_blocks(bytes, end, walk, setting, unprintable_mask_plain, equal_mask_plain);                   \
    }

long ccell_printable_run_end_avx2(const uint8_t *bytes, long start, long end) {
    while (start < end && (uint8_t)(bytes[start] - 0x20) < 0x5F) start++;
    return start;
}

void ccell_store_ascii_avx2(const uint8_t *bytes, long count, uint64_t style, uint64_t *cells) {
    for (long i = 0; i < count; i++) cells[i] = style | bytes[i];
}

#endif

/// The bits below bit `count` (at most 64).
static inline uint64_t bits_below(long count) { return count >= 64 ? ~0ULL : (1ULL << count) - 1; }

/// The lowest set bit's position, 64 if none.
static inline long lowest_bit(uint64_t bits) { return bits ? __builtin_ctzll(bits) : 64; }

/// The position of the set bit of `bits` that has `index` set bits below it (there is
/// one): halves searched down to a bit.
static inline long position_of_set_bit(uint64_t bits, long index) {
    long position = 0;
    for (long width = 32; width > 0; width >>= 1) {
        long below = __builtin_popcountll((bits >> position) & ((1ULL << width) - 1));
        if (below <= index) {
            index -= below;
            position += width;
        }
    }
    return position;
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

/// How many of the 64 bytes at `bytes` (before `end`) a block step may take (the cursor
/// aside): those before the first that is not printable ASCII, a return or a line feed,
/// or before the first SGR that does not end in the block or is not among those `seen`
/// (every SGR when `seen` is NULL). `unseen` is where such an SGR that ends in the block
/// begins (-1 if none), `unseenFinal` where it ends. Writes the masks of their returns,
/// line feeds and characters (the bytes that are in no SGR), and how many line feeds and
/// escapes they hold.
__attribute__((always_inline)) static inline long
block_bytes(const uint8_t *bytes, const uint8_t *end, uint64_t *seen, uint64_t *returns, uint64_t *feeds,
            uint64_t *characters, long *stops, long *unseen, long *unseenFinal,
            uint64_t (*unprintable_of)(const uint8_t *),
            uint64_t (*equal_of)(const uint8_t *, uint8_t)) {
    uint64_t unprintable = unprintable_of(bytes);
    uint64_t cr = equal_of(bytes, '\r'), lf = equal_of(bytes, '\n');
    // Masks now: else the compiler keeps the compares as vectors for later, spilled to the
    // stack across the SGRs (30 instructions a block more).
    __asm__("" : "+r"(unprintable), "+r"(cr), "+r"(lf));
    uint64_t others = unprintable & ~(cr | lf);
    long taken = 64;
    uint64_t sequences = 0;
    *unseen = -1;
    if (others) {
        uint64_t escapes = seen ? equal_of(bytes, 0x1B) : 0;
        taken = lowest_bit(others & ~escapes);
        escapes &= bits_below(taken);
        if (escapes) {
            uint64_t finals = equal_of(bytes, 'm');
            // The escapes from which a key's 8 bytes are all before `end`.
            const long keyed = end - bytes - 9;
            for (; escapes; escapes &= escapes - 1) {
                long escape = __builtin_ctzll(escapes);
                long final = lowest_bit(finals & ~3ULL << escape);
                if (final >= taken) {
                    taken = escape;
                    break;
                }
                long count = final - escape;
                uint64_t key = count <= 8 && escape <= keyed ? rendition_key_of(bytes + escape, count) : 0;
                if (key == 0 || *rendition_slot(key, seen) != key) {
                    // Not seen: the caller learns it, or the block ends before it.
                    *unseen = escape;
                    *unseenFinal = final;
                    taken = escape;
                    break;
                }
                sequences |= (2ULL << final) - (1ULL << escape);
            }
        }
    }
    uint64_t kept = bits_below(taken);
    *returns = cr & kept;
    *feeds = lf & kept;
    *characters = ~(unprintable | sequences) & kept;
    *stops = __builtin_popcountll(unprintable & ~cr & kept);
    return taken;
}

/// ccell_walk_blocks with the instruction set's masks. Only the characters before a
/// block's first return (or line feed, in newline mode) can reach the right margin, at
/// most once: fewer than `columns` follow a return. From the one that does (`margin`),
/// each character stays in the last column while a line feed comes before it (a line
/// feed ends the pending wrap, not the column: `yes` without its returns), and the first
/// that comes straight after a character, SGRs between them or not, wraps: the
/// characters from it on go on from column 0 of the next row.
__attribute__((always_inline)) static inline void
walk_blocks(const uint8_t *bytes, long end, ccell_text_walk *walk, const ccell_block_setting *setting,
            uint64_t (*unprintable_of)(const uint8_t *), uint64_t (*equal_of)(const uint8_t *, uint8_t)) {
    const long columns = setting->columns;
    const bool newline = setting->newline;
    long block = walk->offset, x = walk->x, row = walk->row;
    bool pending = walk->pending_wrap;
    long sparse = 0, learnt = -1;
    walk->sparse = false;
    while (end - block >= 64) {
        uint64_t returns, feeds, characters;
        long stops, unseen, unseenFinal;
        long taken = block_bytes(bytes + block, bytes + end, setting->renditions_seen, &returns, &feeds,
                                 &characters, &stops, &unseen, &unseenFinal, unprintable_of, equal_of);
        // An SGR not seen before: the block again once it is learnt (out of the loop's way),
        // once a block (two that share a slot would take turns in it for ever).
        if (unseen >= 0 && block != learnt &&
            learn_rendition(bytes + block + unseen, unseenFinal - unseen, bytes + end, setting->renditions_seen)) {
            learnt = block;
            continue;
        }
        if (taken == 0) break;

        uint64_t resets = newline ? returns | feeds : returns;
        uint64_t first = characters & ((resets & (0 - resets)) - 1);
        long count = __builtin_popcountll(first);
        // Where a character reaches the margin (-1 for a wrap pending before the block) and
        // the first that wraps: 64 for none.
        long margin = 64, wrap = 64, afterWrap = 0;
        if (pending || x + count >= columns) {
            margin = pending ? -1 : position_of_set_bit(first, columns - 1 - x);
            // The bytes whose last byte before them that is in no SGR is a character.
            uint64_t follows = characters << 1 | (pending ? 1 : 0);
            uint64_t sequences = ~(characters | returns | feeds) & bits_below(taken);
            uint64_t afterCharacter = (follows & ~sequences) | ((sequences + (follows & sequences)) ^ sequences);
            uint64_t fromMargin = pending ? ~0ULL : (~0ULL << margin) << 1;
            wrap = lowest_bit(first & afterCharacter & fromMargin);
            afterWrap = wrap < 64 ? __builtin_popcountll(first >> wrap) : 0;
            // 64 characters from column 0 of a screen 64 wide would reach the margin again.
            if (afterWrap >= columns) break;
        }
        long feedCount = __builtin_popcountll(feeds);
        long rowsEntered = feedCount + (wrap < 64);
        if (row + rowsEntered >= setting->stop) break;
        if (feeds) {
            long lastFeed = 63 - __builtin_clzll(feeds);
            uint64_t before = (1ULL << lastFeed) - 1;
            uint64_t returnsBefore = returns & before;
            long xAfter = newline         ? 0
                          : returnsBefore ? __builtin_popcountll((characters & before) >> (64 - __builtin_clzll(returnsBefore)))
                          : wrap < lastFeed ? __builtin_popcountll((characters & before) >> wrap)
                          : margin < lastFeed ? columns - 1
                                              : x + __builtin_popcountll(characters & before);
            long feedRow = row + feedCount + (wrap < lastFeed);
            setting->starts[feedRow & (setting->starts_kept - 1)] = (ccell_line_start){
                setting->stream_offset + block + lastFeed + 1, xAfter, feedRow, setting->generation};
        }
        row += rowsEntered;
        if (resets) {
            x = __builtin_popcountll((characters >> (63 - __builtin_clzll(resets))) >> 1);
            pending = false;
        } else if (wrap < 64) {
            x = afterWrap;
            pending = false;
        } else if (margin < 64) {
            // At the margin: a wrap pends if a character came after the last line feed.
            uint64_t moves = characters | feeds;
            x = columns - 1;
            if (moves) pending = (characters >> (63 - __builtin_clzll(moves))) & 1;
        } else {
            x += count;
        }
        block += taken;
        sparse = stops < CCELL_DENSE_BLOCK_STOPS ? sparse + 1 : 0;
        if (sparse == CCELL_SPARSE_BLOCKS) {
            walk->sparse = true;
            break;
        }
    }
    walk->offset = block;
    walk->x = x;
    walk->row = row;
    walk->pending_wrap = pending;
}

WALK_BLOCKS_FORM(sse2, )
WALK_BLOCKS_FORM(avx2, __attribute__((target("avx2,popcnt"))))
WALK_BLOCKS_FORM(avx512, __attribute__((target("avx512f,avx512bw,popcnt"))))

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
