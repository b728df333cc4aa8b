#!/usr/bin/env python3
"""Generates Sources/CScreenKernels/ccellcontrolfunctions.h, the tables of the C
classifier behind the redraw skip (ccellredraw.c), from the rows of
Sources/PTYKit/Screen/Parser/ControlFunctionTable.swift: what each escape and
control sequence before a read's last full erase is (left out, fed alone, or
kept) and the AVX2 scan's nibble masks of the final bytes it leaves out; and
from the rows of Sources/PTYKit/Screen/Parser/ModeTable.swift, the private
modes whose lists are kept (the alternate screen's).

    python3 Tools/generate-control-functions.py

Rerun after changing a row, then run
`swift test --filter 'ControlFunctionTable|ModeTable'`, which checks that Swift and C agree
on every (marker, intermediate, final).
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
ROWS = ROOT / "Sources/PTYKit/Screen/Parser/ControlFunctionTable.swift"
MODE_ROWS = ROOT / "Sources/PTYKit/Screen/Parser/ModeTable.swift"
OUTPUT = ROOT / "Sources/CScreenKernels/ccellcontrolfunctions.h"

# ccellredraw.c's item_kind, by BeforeFullRedraw's case names.
KINDS = {"kept": 0, "undone": 1, "pen": 2, "cursor": 3, "fedAlone": 4}
C_KINDS = ["kept", "undone", "graphic", "moves_to", "fed_alone"]
LEFT_OUT = {"undone", "pen", "cursor"}

ROW = re.compile(
    r'ControlFunctionRow\(\.(?P<function>\w+)'
    r'(?:, marker: "(?P<marker>[^"]+)")?'
    r'(?:, intermediate: "(?P<intermediate>[^"]+)")?'
    r', final: (?:"(?P<final>[^"]+)"|nil)'
    r', redraw: \.(?P<redraw>\w+)'
    r'(?:, query: true)?\),$'
)
MODE_ROW = re.compile(
    r'ModeRow\(\.(?P<mode>\w+), (?P<kind>ansi|dec): (?P<number>[0-9]+), "[^"]*"'
    r'(?:, usually: (?:true|false))?, owner: \.(?P<owner>\w+)'
    r'(?:, group: \.\w+)?(?:, lockOut: true)?(?:, walksWhen: (?:true|false))?\),$'
)


def byte(text):
    """The byte a Swift string literal of one ASCII character stands for, 0 for none."""
    if text is None:
        return 0
    value = text.encode().decode("unicode_escape")
    assert len(value) == 1 and ord(value) < 0x80, text
    return ord(value)


def rows_of(source, name):
    """The rows of the array `name`, in order."""
    body = source.split(f"static let {name}: [ControlFunctionRow] = [", 1)[1].split("\n    ]", 1)[0]
    rows = []
    for line in body.strip().splitlines():
        match = ROW.fullmatch(line.strip())
        if match is None:
            sys.exit(f"generate-control-functions: cannot read the row {line.strip()!r}")
        rows.append(
            (
                match["function"],
                byte(match["marker"]),
                byte(match["intermediate"]),
                byte(match["final"]),
                match["redraw"],
            )
        )
    return rows


def kept_modes(source):
    """The DEC private modes whose owner is the alternate screen, in row order."""
    body = source.split("static let rows: [ModeRow] = [", 1)[1].split("\n    ]", 1)[0]
    modes = []
    for line in body.strip().splitlines():
        match = MODE_ROW.fullmatch(line.strip())
        if match is None:
            sys.exit(f"generate-control-functions: cannot read the mode row {line.strip()!r}")
        if match["kind"] == "dec" and match["owner"] == "alternateScreen":
            modes.append(match["number"])
    return ", ".join(modes)


def c_byte(value):
    return f"'\\\\'" if value == 0x5C else f"'\\''" if value == 0x27 else f"'{chr(value)}'"


def table(values, per_line=8):
    lines = []
    for start in range(0, len(values), per_line):
        lines.append("    " + " ".join(f"{value}," for value in values[start : start + per_line]))
    return "\n".join(lines)


def main():
    source = ROWS.read_text()
    escapes = rows_of(source, "escapeRows")
    sequences = rows_of(source, "controlSequenceRows")
    modes = kept_modes(MODE_ROWS.read_text())

    # Control sequences without a marker or intermediate, by final byte: a final without
    # a row is fed alone (ControlFunction.controlSequenceBeforeFullRedraw).
    finals = [0] * 128
    for final in range(0x40, 0x7F):
        finals[final] = KINDS["fedAlone"]
    marked = []
    for function, marker, intermediate, final, redraw in sequences:
        if marker == 0 and intermediate == 0:
            finals[final] = KINDS[redraw]
        else:
            marked.append((function, marker, intermediate, final, redraw))

    # Escape sequences without intermediates, by final byte: one without a row is kept.
    escape_finals = [0] * 128
    escape_intermediates = []
    for function, marker, intermediate, final, redraw in escapes:
        if intermediate == 0:
            escape_finals[final] = KINDS[redraw]
        else:
            escape_intermediates.append((function, intermediate, final, redraw))

    # The AVX2 scan's masks of the finals left out: bit (high nibble - 4) of the low
    # nibble's entry, and that bit for the high nibble.
    low = [0] * 16
    high = [0] * 16
    for nibble in range(4, 8):
        high[nibble] = 1 << (nibble - 4)
    for final in range(0x40, 0x7F):
        if C_KINDS[finals[final]] in ("undone", "graphic", "moves_to"):
            low[final & 0x0F] |= 1 << ((final >> 4) - 4)

    out = []
    out.append("// Generated by Tools/generate-control-functions.py from the rows of")
    out.append("// Sources/PTYKit/Screen/Parser/ControlFunctionTable.swift and ModeTable.swift: do not edit.")
    out.append("// Rerun: python3 Tools/generate-control-functions.py")
    out.append("// Included by ccellredraw.c after its item_kind.")
    out.append("#ifndef CCELLCONTROLFUNCTIONS_H")
    out.append("#define CCELLCONTROLFUNCTIONS_H")
    out.append("")
    out.append("#include <stdint.h>")
    out.append("")
    out.append("/// What a control sequence without a marker or intermediate is, by its final byte (an")
    out.append("/// item_kind).")
    out.append("static const uint8_t final_kinds[128] = {")
    out.append(table(finals, 16))
    out.append("};")
    out.append("")
    out.append("/// The control sequences with a marker or intermediate that have a row.")
    out.append("static const struct {")
    out.append("    uint8_t marker, intermediate, final, kind;")
    out.append("} marked_kinds[] = {")
    for function, marker, intermediate, final, redraw in marked:
        out.append(
            f"    {{{c_byte(marker) if marker else 0}, {c_byte(intermediate) if intermediate else 0}, "
            f"{c_byte(final)}, {C_KINDS[KINDS[redraw]]}}}, // {function}"
        )
    out.append("};")
    out.append("")
    out.append("/// What an escape sequence without intermediates is, by its final byte (an item_kind).")
    out.append("static const uint8_t escape_final_kinds[128] = {")
    out.append(table(escape_finals, 16))
    out.append("};")
    out.append("")
    out.append("/// The escape sequences with an intermediate that have a row; final 0: every final.")
    out.append("static const struct {")
    out.append("    uint8_t intermediate, final, kind;")
    out.append("} escape_intermediate_kinds[] = {")
    for function, intermediate, final, redraw in escape_intermediates:
        out.append(
            f"    {{{c_byte(intermediate)}, {c_byte(final) if final else 0}, {C_KINDS[KINDS[redraw]]}}}, // {function}"
        )
    out.append("};")
    out.append("")
    out.append("/// The final bytes left out (undone, graphic, moves_to) as the AVX2 scan finds them: a")
    out.append("/// final is one where low_nibble_rows[final & 15] & high_nibble_rows[final >> 4] != 0.")
    out.append("static const uint8_t low_nibble_rows[16] = {")
    out.append(table(low, 16))
    out.append("};")
    out.append("static const uint8_t high_nibble_rows[16] = {")
    out.append(table(high, 16))
    out.append("};")
    out.append("")
    out.append("/// The private modes whose lists are kept whatever their final byte: the alternate")
    out.append("/// screen's (owner: .alternateScreen).")
    out.append(f"static const unsigned long kept_modes[] = {{{modes}}};")
    out.append("")
    out.append("#endif")
    OUTPUT.write_text("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
