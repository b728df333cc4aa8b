// The screen model's loops over plain text, with the widest vectors the CPU
// has: finding where a run of printable ASCII ends, finding the returns, line
// feeds and escapes between runs (the walk over text that scrolls away), and writing
// runs into cells. Swift builds for baseline x86-64 (SSE2): 16 bytes a step,
// it has no way to turn a vector comparison into a mask of bits, and widening
// a byte to a 64-bit cell takes a chain of shuffles; AVX2 looks at 32 bytes a
// step and widens in one instruction. The stores are C in every form: Swift's
// SIMD conversions are generic functions that the optimizer leaves as calls
// once the parser's loop they are inlined into grows. AVX-512 stores 8 cells at
// a time. The AVX2 and AVX-512 code is compiled for them alone (a function
// attribute, no build flag) and only called where the CPU and the kernel have
// them, so the binary still runs on every x86-64.
#ifndef CCELLSTORES_H
#define CCELLSTORES_H

#include <stdbool.h>
#include <stdint.h>
#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#pragma clang assume_nonnull begin

/// Whether the _avx2 functions may be called: the CPU has AVX2 and the bit
/// instructions every CPU with AVX2 has (BMI1, BMI2, LZCNT), and the kernel
/// saves the YMM registers. False on other architectures.
bool ccell_avx2_available(void);

/// Whether the _avx512 functions may be called: AVX-512 F, BW and VL, on a CPU
/// that also has VBMI2 (Ice Lake, Zen 4 and later: Skylake-SP lowers its clock
/// for 512-bit instructions, as glibc's Prefer_No_AVX512 says), the kernel
/// saving the ZMM and mask registers. False on other architectures.
bool ccell_avx512_available(void);

/// The end of the run of printable ASCII (0x20-0x7E) from `start`: the offset
/// of the first other byte, or `end`. Needs ccell_avx2_available().
long ccell_printable_run_end_avx2(const uint8_t *bytes, long start, long end);

/// A bit for each of the 16 bytes at `bytes` that is not printable ASCII
/// (0x20-0x7E), byte i in bit i. Inline, so that the parser's loop over
/// ground bytes finds where a run ends in a few instructions: most runs are
/// short (between sequences; in binary data, one byte long). SSE2, which every
/// x86-64 has; elsewhere a loop.
#if defined(__x86_64__)
static inline uint32_t ccell_unprintable_mask16(const uint8_t *bytes) {
    // Moved by 0x60, printable bytes are the signed ones below -33.
    __m128i moved = _mm_add_epi8(_mm_loadu_si128((const __m128i *)bytes), _mm_set1_epi8(0x60));
    return (uint32_t)_mm_movemask_epi8(_mm_cmpgt_epi8(moved, _mm_set1_epi8(-34)));
}
#else
static inline uint32_t ccell_unprintable_mask16(const uint8_t *bytes) {
    uint32_t mask = 0;
    for (int i = 0; i < 16; i++) mask |= (uint32_t)((uint8_t)(bytes[i] - 0x20) >= 0x5F) << i;
    return mask;
}
#endif

/// Gathers ground bytes from `start` (ccellgather.c): the characters of one column among
/// bytes that do nothing to the screen (DEL, CAN, SUB, 0x80-0xC1, 0xF5-0xFF, UTF-8
/// characters cut short or malformed) or nothing but end REP's character (the other C0
/// controls but BS, HT, LF, VT, FF, CR, SO, SI and ESC; the characters U+0080-U+009F, which
/// take no cell): printable ASCII, and the two-byte characters (U+0080-U+07FF) whose entry
/// of `widths` (CharacterWidth's value for U+0080 on, its low two bits) is 1. It goes on
/// past BS, HT, LF, VT, FF, CR, SO and SI, up to `break_capacity` of them, writing each to
/// `breaks` as the number of cells before it shifted left 8, or'd with the control, and
/// their number to `break_count`. Up to `end`, the first other byte, or `capacity` cells;
/// returns where it stopped. Writes the cells' contents to `text` (which has room for 16
/// more, written over) and their number to `count`, and to `control` what of the second
/// kind came last after the last cell and the last break (-1 if nothing): a control, or
/// such a character's scalar; what the state must still be told, after the text. With SSE2
/// (elsewhere a loop), or with AVX2, which needs ccell_avx2_available() and packs the
/// printable bytes with a shuffle.
long ccell_gather_text_sse2(const uint8_t *bytes, long start, long end, uint16_t *text, long capacity,
                            const uint8_t *widths, uint32_t *breaks, long break_capacity, long *break_count,
                            long *count, int *control);
long ccell_gather_text_avx2(const uint8_t *bytes, long start, long end, uint16_t *text, long capacity,
                            const uint8_t *widths, uint32_t *breaks, long break_capacity, long *break_count,
                            long *count, int *control);

/// Writes `count` (at least 4) cells: cell i is `style` | text[i], where the low 32 bits of
/// `style` are 0 (ccellgather.c; SSE2, elsewhere a loop).
void ccell_store_text(const uint16_t *text, long count, uint64_t style, uint64_t *cells);

/// Writes to `stops` the offsets of the bytes from `start` on that are not
/// printable ASCII (0x20-0x7E), and returns how many: up to `end`, to the
/// first that is neither CR, LF nor ESC (included), or `capacity` (at least 1) of
/// them. 64 bytes are looked at a step, with SSE2 (every x86-64; elsewhere a
/// plain loop), AVX2 or AVX-512 BW, which need ccell_avx2_available() and
/// ccell_avx512_available().
long ccell_line_stops_sse2(const uint8_t *bytes, long start, long end, long *stops, long capacity);
long ccell_line_stops_avx2(const uint8_t *bytes, long start, long end, long *stops, long capacity);
long ccell_line_stops_avx512(const uint8_t *bytes, long start, long end, long *stops, long capacity);

/// Where the scroll-ahead's walk over plain text is (ScreenStateScrollAhead.swift): the
/// next byte, the cursor's column and whether a wrap is pending, and its row, numbered on
/// past the bottom of the screen; and whether the walk over blocks left them because the
/// lines grew long (CCELL_SPARSE_BLOCKS blocks in a row with fewer than
/// CCELL_DENSE_BLOCK_STOPS line feeds and escapes each).
typedef struct {
    long offset;
    long x;
    long row;
    bool pending_wrap;
    bool sparse;
} ccell_text_walk;

#define CCELL_DENSE_BLOCK_STOPS 2
#define CCELL_SPARSE_BLOCKS 4

/// Where the walk was just after a line feed (a wrap is never pending then), and which
/// text it was noted in: what the walk to a row goes on from (WalkScratch.swift).
typedef struct {
    long offset;
    long x;
    long row;
    unsigned long generation;
} ccell_line_start;

/// The SGRs the walk over blocks has seen it may go over, kept in a table of this many
/// bits' worth of slots, each all ones at first (no SGR's key: a key ends in its `m`).
#define CCELL_RENDITIONS_SEEN_BITS 4

/// What the walk over blocks goes by: the screen's width (64 columns or more), the row it
/// stops before entering, newline mode, the SGRs it has seen it may go over (NULL when it
/// goes over none: an ESC ends a block then), and where it notes line feeds: in a ring of
/// `starts_kept` (a power of two) by row, offsets counted from `stream_offset` before the
/// bytes, the text's generation.
typedef struct {
    long columns;
    long stop;
    bool newline;
    uint64_t *_Nullable renditions_seen;
    ccell_line_start *starts;
    long starts_kept;
    long stream_offset;
    unsigned long generation;
} ccell_block_setting;

/// Walks plain text from `walk->offset` 64 bytes a step while 64 are left before `end`:
/// printable ASCII, returns, line feeds and (with `renditions_seen`) SGRs, which move no
/// cursor, that the walk by stops goes over (ScreenStateWalkedRendition.swift: codes
/// below 1000, at most 8, no 38, 48 or 58) and that set no background (40-47, 100-107),
/// 8 bytes at most from `[` to `m`: those are looked up among the SGRs seen, learnt the
/// first time. A step takes the bytes before the first that is none of those (or before
/// the SGR it is in, or an SGR the block does not hold whole); none when that is the
/// first, when they would enter row `stop`, or when 64 characters after a wrap would
/// reach the right margin again (a screen 64 wide); and the walk stops after the blocks
/// that set `sparse`. Moves `walk` past what it took, noting where each step's last line
/// feed left it. With SSE2, AVX2 (and POPCNT, BMI1, BMI2, LZCNT) or AVX-512 BW, as
/// ccell_line_stops.
void ccell_walk_blocks_sse2(const uint8_t *bytes, long end, ccell_text_walk *walk, const ccell_block_setting *setting);
void ccell_walk_blocks_avx2(const uint8_t *bytes, long end, ccell_text_walk *walk, const ccell_block_setting *setting);
void ccell_walk_blocks_avx512(const uint8_t *bytes, long end, ccell_text_walk *walk,
                              const ccell_block_setting *setting);

/// Writes `count` (at least 4) cells: cell i is `style` | bytes[i], where the low 32 bits
/// of `style` are 0.
void ccell_store_ascii_avx2(const uint8_t *bytes, long count, uint64_t style, uint64_t *cells);

/// The same with AVX-512. Needs ccell_avx512_available().
void ccell_store_ascii_avx512(const uint8_t *bytes, long count, uint64_t style, uint64_t *cells);

/// The same with SSE2, which every x86-64 has (elsewhere, a loop the compiler vectorizes).
void ccell_store_ascii_sse2(const uint8_t *bytes, long count, uint64_t style, uint64_t *cells);

/// The offset of the last SGR in the `count` bytes at `bytes` that resets the pen first
/// (`ESC [ m`, `ESC [ 0 ; 1 m`): the pen before it is gone after it. Looked for among the
/// last `tries` escapes, each of which must begin an item a scan knew (an escape inside a
/// string would not); -1 if there is no escape, -2 if none of those is one.
long ccell_last_pen_reset(const uint8_t *bytes, long count, long tries);

/// What of a read that redraws the screen the screen model may leave out.
typedef struct {
    /// The offset of the read's last ESC [ 2 J (ED 2, which blanks every cell), 0 if none.
    long erase;
    /// Where feeding may begin instead of at 0: after it, a CUP with only SGRs between it
    /// and the erase, and an SGR that resets the pen; before it, only what the erase, the
    /// CUP and the reset undo (text, cursor moves, erases, SGRs) but for the items in
    /// `fed`. -1 where there is no such redraw: no erase after the first byte, no CUP or
    /// reset before it, or anything else before it (a saved cursor, a screen switch, a
    /// DCS, a cut sequence).
    long resume;
    /// How many sequences and controls before `resume` must still be fed, alone and in
    /// order (modes, titles, character sets, queries): their offsets and lengths, in pairs.
    long fed;
} ccell_redraw;

/// Looks for the last full erase in the `count` bytes, which begin outside any sequence;
/// `fed` has room for `capacity` pairs. With SSE2 (elsewhere plain loops), an item at a
/// time; with AVX2, which needs ccell_avx2_available(), 64 bytes at a time.
ccell_redraw ccell_find_redraw_sse2(const uint8_t *bytes, long count, long *fed, long capacity);
ccell_redraw ccell_find_redraw_avx2(const uint8_t *bytes, long count, long *fed, long capacity);

/// What the redraw skip makes of a control sequence (ESC [ marker ... intermediate final)
/// and of an escape sequence (ESC intermediate final) before the last ED 2: 0 kept, 1
/// undone, 2 an SGR, 3 a CUP, 4 fed alone (Swift's BeforeFullRedraw). Read from the tables
/// Tools/generate-control-functions.py writes; the private-mode lists aside (a `?h` of
/// 1049 is kept).
uint8_t ccell_control_sequence_kind(uint8_t marker, uint8_t intermediate, uint8_t final);
uint8_t ccell_escape_kind(uint8_t intermediate, uint8_t final);

/// Whether the AVX2 scan's nibble masks take `final` for one of a control sequence left
/// out (undone, an SGR or a CUP).
bool ccell_final_left_out_by_avx2(uint8_t final);

/// Whether a DECSET, DECRST or XTRESTORE list naming DEC private mode `mode` is kept
/// before a full erase whatever else it is (the alternate screen's modes).
bool ccell_mode_kept_before_full_redraw(unsigned long mode);

#pragma clang assume_nonnull end

#endif
