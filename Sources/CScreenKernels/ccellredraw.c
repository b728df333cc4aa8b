// A program that redraws whole screens (vim, a dashboard) draws several in one read, each
// begun by ED 2 (ESC [ 2 J), which blanks every cell: only the last is ever seen.
// ccell_find_redraw finds the read's last ED 2 and how much of what comes before it the
// screen model may leave out (see ccellstores.h).
//
// The bytes before it fall in three kinds:
// - those whose effects the ED 2 and the CUP and pen reset that begin the last redraw
//   undo: text, CR, LF, BS, HT, cursor moves, erases, insertions and deletions (the grid
//   and the cursor), and SGRs (the pen);
// - those that change other state but do not read the grid, cursor or pen (modes,
//   margins, character sets, titles, queries): fed alone, in order;
// - the rest, where nothing is left out: what reads the cursor or pen (DECSC, SCOSC, tab
//   stops at the cursor, XTPUSHSGR), switches screens (47, 1047, 1049, RIS: the ED 2 would
//   blank another one), begins a DCS (its string would take the ESC [ 2 J as payload),
//   and anything cut, cancelled or not known.
//
// Which kind each sequence is, is its row's `redraw:` fact in
// Sources/PTYKit/Screen/Parser/ControlFunctionTable.swift, the row the model's state
// switches on: the tables here (ccellcontrolfunctions.h, with the AVX2 nibble masks) are
// generated from those rows by Tools/generate-control-functions.py.

// memrchr is a GNU extension (glibc and musl have it).
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "ccellstores.h"

#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

/// Whether the parameters from `params` to `end` (ESC [ ? ... without the final byte)
/// name mode `mode`.
static bool names_mode(const uint8_t *params, const uint8_t *end, unsigned long mode) {
    unsigned long value = 0;
    for (; params < end; params++) {
        uint8_t byte = *params;
        if (byte >= '0' && byte <= '9') {
            value = value < 100000 ? value * 10 + (byte - '0') : value;
            continue;
        }
        if (value == mode) return true;
        value = 0;
    }
    return value == mode;
}

/// The masks a scan takes `width` bytes a step with (width 0: none, every byte looked at
/// alone): where ESC [ 2 J begins (3 more bytes read), and the C0 controls.
typedef struct {
    long width;
    uint32_t (*full_erase)(const uint8_t *);
    uint32_t (*control)(const uint8_t *);
} masks;

__attribute__((always_inline)) static inline long last_full_erase(const uint8_t *bytes, long count, masks m) {
    long at = count - 4;
    for (; m.width > 0 && at >= m.width - 1; at -= m.width) {
        uint32_t mask = m.full_erase(bytes + at - (m.width - 1));
        if (mask != 0) return at - (m.width - 1) + 31 - __builtin_clz(mask);
    }
    for (; at >= 0; at--) {
        if (bytes[at] == 0x1B && bytes[at + 1] == '[' && bytes[at + 2] == '2' && bytes[at + 3] == 'J') return at;
    }
    return -1;
}

/// The first C0 control from `at`, or `end`.
__attribute__((always_inline)) static inline long next_control(const uint8_t *bytes, long at, long end, masks m) {
    for (; m.width > 0 && at + m.width <= end; at += m.width) {
        uint32_t mask = m.control(bytes + at);
        if (mask != 0) return at + __builtin_ctz(mask);
    }
    while (at < end && bytes[at] >= 0x20) at++;
    return at;
}

/// What the item of bytes before the last ED 2 from an ESC or control is.
typedef enum {
    /// Nothing may be left out.
    kept,
    /// Its effects are undone (text, cursor, grid): left out.
    undone,
    /// An SGR: left out, its pen set again by a later reset.
    graphic,
    /// A CUP: left out, the cursor set again by a later one.
    moves_to,
    /// Fed alone.
    fed_alone,
} item_kind;

#include "ccellcontrolfunctions.h"

/// Whether a private-mode list may switch screens or save the cursor, whatever its final
/// byte (set, reset, XTRESTORE).
static bool names_kept_mode(const uint8_t *params, const uint8_t *end) {
    for (size_t i = 0; i < sizeof kept_modes / sizeof kept_modes[0]; i++) {
        if (names_mode(params, end, kept_modes[i])) return true;
    }
    return false;
}

uint8_t ccell_control_sequence_kind(uint8_t marker, uint8_t intermediate, uint8_t final) {
    if (final < 0x40 || final > 0x7E) return kept;
    if ((marker | intermediate) == 0) return final_kinds[final];
    for (size_t i = 0; i < sizeof marked_kinds / sizeof marked_kinds[0]; i++) {
        if (marked_kinds[i].marker == marker && marked_kinds[i].intermediate == intermediate &&
            marked_kinds[i].final == final)
            return marked_kinds[i].kind;
    }
    // Without a row: XTPUSHSGR and its kin read the pen; the model ignores the rest.
    return marker == 0 && intermediate == '#' ? kept : fed_alone;
}

uint8_t ccell_escape_kind(uint8_t intermediate, uint8_t final) {
    if (final < 0x30 || final > 0x7E) return kept;
    if (intermediate == 0) return escape_final_kinds[final];
    for (size_t i = 0; i < sizeof escape_intermediate_kinds / sizeof escape_intermediate_kinds[0]; i++) {
        if (escape_intermediate_kinds[i].intermediate == intermediate &&
            (escape_intermediate_kinds[i].final == 0 || escape_intermediate_kinds[i].final == final))
            return escape_intermediate_kinds[i].kind;
    }
    return fed_alone;
}

bool ccell_final_left_out_by_avx2(uint8_t final) {
    return (low_nibble_rows[final & 0x0F] & high_nibble_rows[final >> 4]) != 0;
}

bool ccell_mode_kept_before_full_redraw(unsigned long mode) {
    for (size_t i = 0; i < sizeof kept_modes / sizeof kept_modes[0]; i++) {
        if (kept_modes[i] == mode) return true;
    }
    return false;
}

/// The kind of the control sequence from the ESC at `at` (before `limit`), its end in
/// `end`.
static item_kind control_sequence_kind(const uint8_t *bytes, long at, long limit, long *end) {
    long p = at + 2;
    uint8_t marker = p < limit && bytes[p] >= 0x3C && bytes[p] <= 0x3F ? bytes[p++] : 0;
    const uint8_t *params = bytes + p;
    while (p < limit && ((bytes[p] >= '0' && bytes[p] <= '9') || bytes[p] == ';' || bytes[p] == ':')) p++;
    const uint8_t *params_end = bytes + p;
    long intermediates = p;
    while (p < limit && bytes[p] >= 0x20 && bytes[p] <= 0x2F) p++;
    // Cut by the ED 2 (an ESC cancels it) or with a byte the parser goes over: not worth
    // knowing.
    if (p >= limit || bytes[p] < 0x40 || bytes[p] > 0x7E) return kept;
    *end = p + 1;
    if (marker == '?' && names_kept_mode(params, params_end)) return kept;
    if (p - intermediates <= 1) return (item_kind)ccell_control_sequence_kind(marker, p > intermediates ? bytes[intermediates] : 0, bytes[p]);
    // The model ignores a sequence with more intermediates; XTPUSHSGR and its kin read the
    // pen.
    for (long i = intermediates; marker == 0 && i < p; i++) {
        if (bytes[i] == '#') return kept;
    }
    return fed_alone;
}

/// The kind of the escape sequence (not a control sequence) from the ESC at `at` (before
/// `limit`), its end in `end`.
static item_kind escape_kind(const uint8_t *bytes, long at, long limit, long *end) {
    uint8_t next = bytes[at + 1];
    switch (next) {
    case ']': case '_': case '^': case 'X': case 'k': {
        // A string, fed whole with its end: BEL (an OSC's) or ST.
        long p = at + 2;
        while (p < limit && bytes[p] != 0x1B && !(next == ']' && bytes[p] == 0x07) && bytes[p] != 0x18 &&
               bytes[p] != 0x1A)
            p++;
        if (p < limit && bytes[p] == 0x07) {
            *end = p + 1;
            return fed_alone;
        }
        if (p + 1 < limit && bytes[p] == 0x1B && bytes[p + 1] == '\\') {
            *end = p + 2;
            return fed_alone;
        }
        return kept;
    }
    default: {
        long p = at + 1;
        while (p < limit && bytes[p] >= 0x20 && bytes[p] <= 0x2F) p++;
        if (p >= limit || bytes[p] < 0x30 || bytes[p] > 0x7E) return kept;
        *end = p + 1;
        // The model ignores a sequence with more than one intermediate.
        if (p - (at + 1) > 1) return fed_alone;
        return (item_kind)ccell_escape_kind(p > at + 1 ? bytes[at + 1] : 0, bytes[p]);
    }
    }
}

/// The kind of the item from `at` (before `limit`) that the scans' fast paths leave: an
/// escape other than a control sequence with a known final byte, or a control other than
/// CR or LF.
__attribute__((noinline)) static item_kind other_item_kind(const uint8_t *bytes, long at, long limit, long *end) {
    uint8_t byte = bytes[at];
    *end = at + 1;
    if (byte == 0x1B) {
        if (at + 1 >= limit) return kept;
        return bytes[at + 1] == '[' ? control_sequence_kind(bytes, at, limit, end) : escape_kind(bytes, at, limit, end);
    }
    if (byte == '\b' || byte == '\t' || byte == 0x0B || byte == 0x0C) return undone;
    return byte == 0x18 || byte == 0x1A ? kept : fed_alone;
}

/// Takes an item the scans found from `at` to `end` of `kind`: false (the scan stops)
/// where nothing may be left out.
static inline bool take_item(item_kind kind, long at, long end, long *fed, long capacity, long *items) {
    if (kind == kept) return false;
    if (kind == fed_alone) {
        if (*items == capacity) return false;
        fed[2 * *items] = at;
        fed[2 * *items + 1] = end - at;
        ++*items;
    }
    return true;
}

/// The forward scan over the `erase` bytes before the last ED 2, one item at a time:
/// `undone` if all of them may be left out or fed alone (those written to `fed`), else
/// `kept` (also for one too many to feed). The bytes from `erase` are ESC [ 2 J: the
/// loops over a sequence's bytes stop at its ESC without looking at `erase`.
__attribute__((always_inline)) static inline item_kind
scan_items(const uint8_t *bytes, long erase, long *fed, long capacity, long *items, masks m) {
    long at = 0;
    for (;;) {
        at = next_control(bytes, at, erase, m);
        if (at >= erase) return undone;
        uint8_t byte = bytes[at];
        if (byte == 0x1B && bytes[at + 1] == '[') {
            // The common case, a control sequence without a marker or intermediates.
            long p = at + 2;
            uint8_t next = bytes[p];
            while ((uint8_t)(next - '0') < 12) next = bytes[++p];
            item_kind kind = next < 0x80 && p < erase ? (item_kind)final_kinds[next] : kept;
            if (kind == graphic || kind == moves_to || kind == undone) {
                at = p + 1;
                continue;
            }
        } else if (byte == '\r' || byte == '\n') {
            at++;
            continue;
        }
        long end;
        item_kind kind = other_item_kind(bytes, at, erase, &end);
        if (!take_item(kind, at, end, fed, capacity, items)) return kept;
        at = end;
    }
}

/// The last CUP before `erase` with nothing but SGRs between them, or -1: looked for
/// among the last escapes, from the end.
static long last_cursor_position(const uint8_t *bytes, long erase) {
    long end = erase;
    for (int tries = 0; tries < 32; tries++) {
        const uint8_t *escape = memrchr(bytes, 0x1B, (size_t)end);
        if (escape == NULL) return -1;
        long at = escape - bytes;
        // From it to `end`, exactly one control sequence without a marker or intermediates.
        if (end - at < 3 || bytes[at + 1] != '[') return -1;
        long p = at + 2;
        while (p < end - 1 && (uint8_t)(bytes[p] - '0') < 12) p++;
        if (p != end - 1) return -1;
        if (bytes[p] == 'H' || bytes[p] == 'f') return at;
        if (bytes[p] != 'm') return -1;
        end = at;
    }
    return -1;
}

/// ccell_find_redraw, with what the forward scan returned (`undone` or `kept`) and the
/// items it found in `fed`.
static ccell_redraw find_redraw(const uint8_t *bytes, long erase, item_kind scan, const long *fed, long items) {
    ccell_redraw fed_whole = {erase, -1, 0};
    if (scan != undone) return fed_whole;
    long cursor = last_cursor_position(bytes, erase);
    // The reset begins the redraw: among the last escapes. Every ESC before the erase
    // begins an item the scan knew.
    long reset = cursor < 0 ? -1 : ccell_last_pen_reset(bytes, erase, 32);
    if (reset < 0) return fed_whole;
    long resume = cursor < reset ? cursor : reset;
    long before = 0;
    while (before < items && fed[2 * before] < resume) before++;
    ccell_redraw found = {erase, resume, before};
    return found;
}

/// ccell_find_redraw with the forward scan an item at a time.
__attribute__((always_inline)) static inline ccell_redraw
find_redraw_by_items(const uint8_t *bytes, long count, long *fed, long capacity, masks m) {
    long erase = last_full_erase(bytes, count, m), items = 0;
    if (erase <= 0) return (ccell_redraw){0, -1, 0};
    item_kind scan = scan_items(bytes, erase, fed, capacity, &items, m);
    return find_redraw(bytes, erase, scan, fed, items);
}

#if defined(__x86_64__)

/// Bit i set where ESC [ 2 J begins at bytes[i], of the 16 from `bytes`.
__attribute__((always_inline)) static inline uint32_t full_erase_mask_sse2(const uint8_t *bytes) {
    __m128i escapes = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)bytes), _mm_set1_epi8(0x1B));
    __m128i brackets = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(bytes + 1)), _mm_set1_epi8('['));
    __m128i twos = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(bytes + 2)), _mm_set1_epi8('2'));
    __m128i finals = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(bytes + 3)), _mm_set1_epi8('J'));
    __m128i all = _mm_and_si128(_mm_and_si128(escapes, brackets), _mm_and_si128(twos, finals));
    return (uint32_t)_mm_movemask_epi8(all);
}

/// Bit i set where bytes[i] is below 0x20, of the 16 from `bytes`.
__attribute__((always_inline)) static inline uint32_t control_mask_sse2(const uint8_t *bytes) {
    __m128i chunk = _mm_loadu_si128((const __m128i *)bytes);
    return (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(chunk, _mm_set1_epi8(0x1F)), chunk));
}

__attribute__((target("avx2"), always_inline)) static inline __m256i equal_avx2(const uint8_t *bytes, char byte) {
    return _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)bytes), _mm256_set1_epi8(byte));
}

/// The same for the 32 from `bytes`.
__attribute__((target("avx2"), always_inline)) static inline uint32_t full_erase_mask_avx2(const uint8_t *bytes) {
    __m256i all = _mm256_and_si256(_mm256_and_si256(equal_avx2(bytes, 0x1B), equal_avx2(bytes + 1, '[')),
                                   _mm256_and_si256(equal_avx2(bytes + 2, '2'), equal_avx2(bytes + 3, 'J')));
    return (uint32_t)_mm256_movemask_epi8(all);
}

__attribute__((target("avx2"), always_inline)) static inline uint32_t control_mask_avx2(const uint8_t *bytes) {
    __m256i chunk = _mm256_loadu_si256((const __m256i *)bytes);
    return (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_min_epu8(chunk, _mm256_set1_epi8(0x1F)), chunk));
}

/// Bits of a byte's row in the AVX2 scan besides the generated final-byte rows, which a
/// final's high nibble (4 to 7) limits to the low four: a parameter byte (0x30-0x3B) in the
/// top bit, which movemask takes as it is, and a C0 control other than LF and CR (0x00-0x0F)
/// or than ESC (0x10-0x1F). One lookup classifies every byte a block needs but ESC and '[':
/// a control's row holds only its class bit, a parameter byte's has the top bit (negative
/// as a signed byte), any other byte's only final bits; so a row above final_bits is such a
/// control, and a row of 0 a byte that no final's bits name (at a final's place, a control
/// with a class bit is looked at anyway).
enum { final_bits = 0x0F, low_controls = 0x10, high_controls = 0x20, parameter = 0x80 };
/// A low nibble n is a parameter byte's up to B, low_controls' but for A (LF) and D (CR),
/// high_controls' but for B (ESC).
static const uint8_t class_low_nibble_rows[16] = {
    0xB0, 0xB0, 0xB0, 0xB0, 0xB0, 0xB0, 0xB0, 0xB0, 0xB0, 0xB0, 0xA0, 0x90, 0x30, 0x20, 0x30, 0x30,
};
static const uint8_t class_high_nibble_rows[16] = {
    low_controls, high_controls, 0, parameter, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/// What the AVX2 scan carries from a block to the next: the ESC [ whose parameters begin
/// in it, and the addition's carry.
typedef struct {
    uint64_t starts;
    unsigned char sum;
} block_carry;

/// The bits of 64 bytes from `p` (65 readable) that the scan looks at one by one: controls
/// other than CR and LF, escapes other than ESC [, and the bytes that end a control
/// sequence (ESC [, parameter bytes, then the first other byte) that is not one left out
/// (in `finals`, all those that end one; in `starts_in_block`, where the parameters of
/// each begin). Final bytes of the control sequences left out
/// (final_kinds undone, graphic and moves_to) are a bit of the high nibble's row that the
/// low nibble's sets; the classes above are in the rows' other bits.
__attribute__((target("avx2"), always_inline)) static inline uint64_t
block_unknowns_avx2(const uint8_t *p, __m256i low_table, __m256i high_table, block_carry *carry, uint64_t *finals,
                    uint64_t *starts_in_block) {
    uint64_t escapes = 0, brackets_next = 0, params = 0, other_controls = 0, no_finals = 0;
    for (int half = 0; half < 2; half++) {
        __m256i b = _mm256_loadu_si256((const __m256i *)(p + 32 * half));
        __m256i next = _mm256_loadu_si256((const __m256i *)(p + 32 * half + 1));
        __m256i nibbles = _mm256_and_si256(_mm256_srli_epi16(b, 4), _mm256_set1_epi8(0x0F));
        __m256i rows = _mm256_and_si256(_mm256_shuffle_epi8(low_table, _mm256_and_si256(b, _mm256_set1_epi8(0x0F))),
                                        _mm256_shuffle_epi8(high_table, nibbles));
        int shift = 32 * half;
        escapes |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(b, _mm256_set1_epi8(0x1B))) << shift;
        brackets_next |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(next, _mm256_set1_epi8('[')))
                         << shift;
        params |= (uint64_t)(uint32_t)_mm256_movemask_epi8(rows) << shift;
        other_controls |=
            (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpgt_epi8(rows, _mm256_set1_epi8(final_bits))) << shift;
        no_finals |= (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(rows, _mm256_setzero_si256()))
                     << shift;
    }
    uint64_t sequences = escapes & brackets_next;
    uint64_t starts = sequences << 2 | carry->starts;
    *starts_in_block = starts;
    carry->starts = sequences >> 62;
    unsigned long long sum;
    carry->sum = _addcarry_u64(carry->sum, starts, params, &sum);
    *finals = sum & ~params;
    return (*finals & no_finals) | (escapes & ~brackets_next) | other_controls;
}

/// Takes the items that begin at the bits of `unknown` in the block from `block` (their
/// ends in `finals` for control sequences), those before `*consumed` aside: false where
/// the scan stops.
__attribute__((noinline)) static bool take_unknowns(const uint8_t *bytes, long erase, long block, uint64_t unknown,
                                                     uint64_t finals, long *consumed, long *fed, long capacity,
                                                     long *items) {
    for (; unknown != 0; unknown &= unknown - 1) {
        long at = block + __builtin_ctzll(unknown);
        if (at < *consumed) continue;
        if ((finals >> (at - block)) & 1) {
            // The byte that ends a control sequence: the item is from its ESC.
            const uint8_t *escape = memrchr(bytes + *consumed, 0x1B, (size_t)(at - *consumed));
            if (escape == NULL) return false;
            at = escape - bytes;
        }
        long end;
        item_kind kind = other_item_kind(bytes, at, erase, &end);
        if (!take_item(kind, at, end, fed, capacity, items)) return false;
        *consumed = end;
    }
    return true;
}

/// The same as scan_items for AVX2, 64 bytes a step: the bytes that end a control
/// sequence are found all at once (the bits after each ESC [ added to the run of
/// parameter bits they begin carry to the byte after it), and only the items other than
/// text, CR, LF and control sequences with known final bytes are looked at one by one.
/// The last bytes are copied out first, so that the loop over the others makes no call
/// but where there are such items.
__attribute__((target("avx2"))) static item_kind
scan_blocks_avx2(const uint8_t *bytes, long erase, long *fed, long capacity, long *items) {
    const __m256i low_table = _mm256_broadcastsi128_si256(
        _mm_or_si128(_mm_loadu_si128((const __m128i *)low_nibble_rows),
                     _mm_loadu_si128((const __m128i *)class_low_nibble_rows)));
    const __m256i high_table = _mm256_broadcastsi128_si256(
        _mm_or_si128(_mm_loadu_si128((const __m128i *)high_nibble_rows),
                     _mm_loadu_si128((const __m128i *)class_high_nibble_rows)));
    block_carry carry = {0, 0};
    long consumed = 0, block = 0;
    uint64_t finals, starts;
    for (; erase - block >= 65; block += 64) {
        uint64_t unknown = block_unknowns_avx2(bytes + block, low_table, high_table, &carry, &finals, &starts);
        if (unknown != 0 && !take_unknowns(bytes, erase, block, unknown, finals, &consumed, fed, capacity, items))
            return kept;
    }
    // The last 1 to 64 bytes, and blanks after them (read one past the 64).
    long left = erase - block;
    uint8_t tail[65 + 32];
    memset(tail, ' ', sizeof tail);
    memcpy(tail, bytes + block, (size_t)left);
    uint64_t unknown = block_unknowns_avx2(tail, low_table, high_table, &carry, &finals, &starts);
    // A sequence cut by the erase: cancelled, but not worth knowing.
    uint64_t inside = left >= 64 ? ~0ULL : (1ULL << left) - 1;
    if (((finals | starts) & ~inside) != 0 || carry.starts != 0 || carry.sum != 0) return kept;
    unknown &= inside;
    if (unknown != 0 && !take_unknowns(bytes, erase, block, unknown, finals, &consumed, fed, capacity, items))
        return kept;
    return undone;
}

ccell_redraw ccell_find_redraw_sse2(const uint8_t *bytes, long count, long *fed, long capacity) {
    masks m = {16, full_erase_mask_sse2, control_mask_sse2};
    return find_redraw_by_items(bytes, count, fed, capacity, m);
}

__attribute__((target("avx2")))
ccell_redraw ccell_find_redraw_avx2(const uint8_t *bytes, long count, long *fed, long capacity) {
    masks m = {32, full_erase_mask_avx2, control_mask_avx2};
    long erase = last_full_erase(bytes, count, m), items = 0;
    if (erase <= 0) return (ccell_redraw){0, -1, 0};
    item_kind scan = scan_blocks_avx2(bytes, erase, fed, capacity, &items);
    return find_redraw(bytes, erase, scan, fed, items);
}

#else

ccell_redraw ccell_find_redraw_sse2(const uint8_t *bytes, long count, long *fed, long capacity) {
    masks m = {0, NULL, NULL};
    return find_redraw_by_items(bytes, count, fed, capacity, m);
}

ccell_redraw ccell_find_redraw_avx2(const uint8_t *bytes, long count, long *fed, long capacity) {
    return ccell_find_redraw_sse2(bytes, count, fed, capacity);
}

#endif
