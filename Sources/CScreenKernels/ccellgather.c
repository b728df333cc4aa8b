// Ground bytes as a binary file printed by mistake has them: short runs of printable
// ASCII between bytes that do nothing to the screen (see ccellstores.h). Each of those
// runs, reaching the state alone, would cost a run's set-up (the pen's id, the character
// set, the right edge, the row, its wide-character cuts) and the branch on which kind the
// next byte is, which in such bytes the CPU cannot guess; gathered, the state writes them
// in one run, and this loop decides each byte's kind by two tables, without a branch.
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

long ccell_gather_text(const uint8_t *bytes, long start, long end, uint8_t *text, long capacity,
                       long *count, int *control) {
    // The last byte is left to the caller: a lead there may be completed by the next read.
    // At most `capacity` bytes, so at most as many printable ones.
    long offset = start, gathered = 0;
    long stop = end - 1 < start + capacity ? end - 1 : start + capacity;
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
