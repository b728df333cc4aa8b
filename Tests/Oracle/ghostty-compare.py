#!/usr/bin/env python3
"""The screen model's independent oracle: libghostty-vt (Ghostty's terminal core, through
the pyghostty package), which nobody on idlewrap wrote.

    ghostty-compare.py compare MANIFEST
        MANIFEST has one case a line: NAME TAB ROWS TAB COLUMNS TAB EXPECTED TAB ACTUAL, the
        last two files of bytes. EXPECTED (the command's raw output) goes into one terminal,
        ACTUAL (everything idlewrap wrote to the terminal: the output up to the lock, the lock
        screen, the unlock's repaint) into another, and every cell (text, width, colours,
        attributes, underline style and colour, hyperlink), each row's wrap flag, the
        cursor (position, pending wrap, visibility, shape, blinking as mode 12), the screen shown, the modes,
        the kitty keyboard flags, the title and the working directory are compared: as
        they are; after both get the same further output (PROBE, which shows what a
        screen cannot: the pen, character sets, saved cursor, tab stops, margins); and, when the alternate screen shows, the main screen
        behind it. One line a difference: NAME TAB PHASE TAB KIND TAB COUNT TAB EXAMPLE.
    ghostty-compare.py cut MANIFEST
        MANIFEST has one input a line: NAME TAB ROWS TAB COLUMNS TAB FILE. Writes FILE.cut,
        the input up to the first construct the model and Ghostty read differently for a
        reason explained below (DISPUTES), without DEL (which xterm and tmux ignore and
        Ghostty prints) and the bytes from 0x80 inside sequences, and prints NAME TAB the
        dispute it was cut at (or `-`). For the fuzz corpus: byte soup meets such a
        construct early, and one disagreement shifts every later cell, which would hide a
        repaint bug after it.
    ghostty-compare.py cases DIRECTORY OUT
        Writes each case of the reference transcripts under DIRECTORY (alacritty's
        `*/alacritty.recording` with its size.json, libvterm's `*.test`) to OUT as
        NAME.bytes with NAME.size ("ROWS COLUMNS"), one line NAME a case on stdout.

Exit status 0 when it ran (differences or not), 3 when pyghostty cannot be imported.
"""
import glob
import json
import os
import re
import sys
import unicodedata

try:
    from pyghostty import Terminal, ffi, lib
    from pyghostty.core import init_sized
except ImportError:
    print("needs the Python package pyghostty (pip install pyghostty)", file=sys.stderr)
    sys.exit(3)

# Output after the comparison as it is: text, a tab, returns and line feeds at the bottom,
# the saved cursor, reverse index in the region, charset shifts: what the repaint restores
# but a screen does not show. No REP: what it repeats after a repaint is where terminals
# differ (docs/screen-model.md, REP), not a thing the repaint can restore for all of them.
PROBE = (b"XY\tT\r\nnext\x1b8S\x1b[3;1H\x1bM\x1bMR\x1b[99;1H\n\nQ\x0eq\x0fq"
         b"\x1b[1;99Hlast\x1b[99;99Hedge")
SHOW_MAIN = b"\x1b[?47l"

DEC_MODES = [1, 4, 5, 6, 7, 12, 25, 45, 66, 69, 1000, 1002, 1003, 1004, 1005, 1006, 1007, 1015,
             1016, 1035, 1036, 1039, 2004, 2026, 2027, 2031, 2048, 9]
ANSI_MODES = [2, 4, 12, 20]
STYLE_KEYS = ("fg", "bg", "underline_color", "bold", "italic", "faint", "blink", "inverse",
              "invisible", "strikethrough", "overline", "underline")
WIDTHS = {lib.GHOSTTY_CELL_WIDE_NARROW: "narrow", lib.GHOSTTY_CELL_WIDE_WIDE: "wide",
          lib.GHOSTTY_CELL_WIDE_SPACER_TAIL: "tail", lib.GHOSTTY_CELL_WIDE_SPACER_HEAD: "head"}


def string_data(term, key):
    value = term.get(key, "GhosttyString")
    return ffi.buffer(value.ptr, value.len)[:] if value.len else b""


def cell(term, x, y):
    ref = term.ref(x, y)
    out = ffi.new("GhosttyCell*")
    lib.ghostty_grid_ref_cell(ref, out)
    wide = ffi.new("int*")
    lib.ghostty_cell_get(out[0], lib.GHOSTTY_CELL_DATA_WIDE, wide)
    count = ffi.new("size_t*")
    buffer = ffi.new("uint32_t[16]")
    lib.ghostty_grid_ref_graphemes(ref, buffer, 16, count)
    text = "".join(chr(buffer[i]) for i in range(min(count[0], 16)))
    uri = ffi.new("uint8_t[4096]")
    length = ffi.new("size_t*")
    link = b""
    if lib.ghostty_grid_ref_hyperlink_uri(ref, uri, 4096, length) == lib.GHOSTTY_SUCCESS:
        link = ffi.buffer(uri, length[0])[:]
    style = term.style(x, y)
    # A blank erased with a background colour holds that colour as its content, with no
    # style: read it as the background it shows (a space printed in it is styled instead).
    tag = ffi.new("int*")
    lib.ghostty_cell_get(out[0], lib.GHOSTTY_CELL_DATA_CONTENT_TAG, tag)
    if tag[0] == lib.GHOSTTY_CELL_CONTENT_BG_COLOR_PALETTE:
        index = ffi.new("uint8_t*")
        lib.ghostty_cell_get(out[0], lib.GHOSTTY_CELL_DATA_COLOR_PALETTE, index)
        style = dict(style, bg=("palette", index[0]))
    elif tag[0] == lib.GHOSTTY_CELL_CONTENT_BG_COLOR_RGB:
        rgb = ffi.new("GhosttyColorRgb*")
        lib.ghostty_cell_get(out[0], lib.GHOSTTY_CELL_DATA_COLOR_RGB, rgb)
        style = dict(style, bg=("rgb", (rgb.r, rgb.g, rgb.b)))
    # Ghostty reads SGR 4:0 and 24 alike; the underline colour shows only with an underline
    # in every terminal, but is kept either way: compare it as kept.
    # A cell never written and one holding a space look alike and are alike in every
    # terminal (the repaint writes blanks as spaces).
    return {"text": text or " ", "width": WIDTHS.get(wide[0], wide[0]), "link": link} | \
        {"style." + key: style[key] for key in STYLE_KEYS}


def style_value(style):
    def color(c):
        if c.tag == lib.GHOSTTY_STYLE_COLOR_PALETTE:
            return ("palette", c.value.palette)
        if c.tag == lib.GHOSTTY_STYLE_COLOR_RGB:
            return ("rgb", (c.value.rgb.r, c.value.rgb.g, c.value.rgb.b))
        return None
    return tuple([color(style.fg_color), color(style.bg_color), color(style.underline_color)] +
                 [bool(getattr(style, key)) for key in STYLE_KEYS[3:-1]] + [style.underline])


def pen(term):
    """The attributes the next character is printed with (Ghostty's "cursor style")."""
    style = init_sized("GhosttyStyle")
    lib.ghostty_terminal_get(term._t[0], lib.GHOSTTY_TERMINAL_DATA_CURSOR_STYLE, style)
    return style_value(style)


def row_signature(term, y, columns):
    """The row as Ghostty's own VT formatter writes it (text and every attribute): rows
    alike this way are compared no further, which saves the per-cell calls."""
    selection = init_sized("GhosttySelection")
    selection.start = term.ref(0, y)[0]
    selection.end = term.ref(columns - 1, y)[0]
    options = init_sized("GhosttyTerminalSelectionFormatOptions")
    options.emit = lib.GHOSTTY_FORMATTER_FORMAT_VT
    options.unwrap, options.trim, options.selection = False, False, selection
    size = ffi.new("size_t*")
    lib.ghostty_terminal_selection_format_buf(term._t[0], options[0], ffi.NULL, 0, size)
    buffer = ffi.new("uint8_t[]", max(size[0], 1))
    lib.ghostty_terminal_selection_format_buf(term._t[0], options[0], buffer, len(buffer), size)
    return ffi.buffer(buffer, size[0])[:]


def row_wraps(term, y):
    row = ffi.new("GhosttyRow*")
    lib.ghostty_grid_ref_row(term.ref(0, y), row)
    flag = ffi.new("bool*")
    lib.ghostty_row_get(row[0], lib.GHOSTTY_ROW_DATA_WRAP, flag)
    return bool(flag[0])


def cursor_shape(term):
    """The cursor's shape as DECSCUSR set it (bar, block, underline): Ghostty keeps it for
    its renderer, read through a render state. Its blinking is mode 12 (DECSCUSR sets
    that too), compared with the modes."""
    render = ffi.new("GhosttyRenderState*")
    if lib.ghostty_render_state_new(ffi.NULL, render) != lib.GHOSTTY_SUCCESS:
        raise MemoryError("ghostty_render_state_new")
    try:
        lib.ghostty_render_state_update(render[0], term._t[0])
        shape = ffi.new("GhosttyRenderStateCursorVisualStyle*")
        lib.ghostty_render_state_get(render[0], lib.GHOSTTY_RENDER_STATE_DATA_CURSOR_VISUAL_STYLE, shape)
        return int(shape[0])
    finally:
        lib.ghostty_render_state_free(render[0])


def state(term):
    result = {
        "cursor": term.cursor,
        "cursor.shape": cursor_shape(term),
        # Ghostty, as xterm, sets the flag at the last column with autowrap reset too; the
        # model and tmux do not. It acts only once autowrap is set again, which `cut` stops
        # at ("DECAWM set with a wrap pending").
        "cursor.pendingWrap": bool(term.get("cursor_pending_wrap", "bool")) and term.mode(7),
        "cursor.visible": bool(term.get("cursor_visible", "bool")),
        "pen": pen(term),
        "screen": term.get("active_screen", "int"),
        "kittyKeyboard": term.get("kitty_keyboard_flags", "uint8_t"),
        "title": string_data(term, "title"),
        "workingDirectory": string_data(term, "pwd"),
    }
    for mode in DEC_MODES:
        result[f"mode.?{mode}"] = term.mode(mode)
    for mode in ANSI_MODES:
        result[f"mode.{mode}"] = term.mode(mode, ansi=True)
    return result


def terminal(rows, columns, data):
    term = Terminal(cols=columns, rows=rows, scrollback=0)
    term.feed(data)
    return term


def differences(expected, actual, rows, columns):
    """{kind: [count, example]} of what differs between two terminals' shown states."""
    found = {}

    def note(kind, where, wanted, got):
        entry = found.setdefault(kind, [0, f"{where}: expected {wanted!r}, got {got!r}"])
        entry[0] += 1

    # DECCOLM may have resized either (Ghostty follows it where allowed).
    if expected.size != actual.size:
        note("size", "screen", expected.size, actual.size)
    columns = min(expected.size[0], actual.size[0])
    rows = min(expected.size[1], actual.size[1])
    wanted, got = state(expected), state(actual)
    for key in wanted:
        if wanted[key] != got[key]:
            note(key, "state", wanted[key], got[key])
    for y in range(rows):
        if row_wraps(expected, y) != row_wraps(actual, y):
            note("row.wrap", f"row {y}", row_wraps(expected, y), row_wraps(actual, y))
        if row_signature(expected, y, columns) == row_signature(actual, y, columns):
            continue
        for x in range(columns):
            a, b = cell(expected, x, y), cell(actual, x, y)
            if a == b:
                continue
            for key in a:
                if a[key] != b[key]:
                    note("cell." + key, f"row {y} column {x}", a[key], b[key])
    return found


def compare(manifest):
    for line in open(manifest, encoding="utf-8"):
        name, rows, columns, expected_path, actual_path = line.rstrip("\n").split("\t")
        rows, columns = int(rows), int(columns)
        expected = open(expected_path, "rb").read()
        actual = open(actual_path, "rb").read()
        phases = [("shown", b""), ("after more output", PROBE)]
        with terminal(rows, columns, expected) as probe:
            if probe.get("active_screen", "int") != lib.GHOSTTY_TERMINAL_SCREEN_PRIMARY:
                phases.append(("main screen behind", SHOW_MAIN))
        for phase, more in phases:
            with terminal(rows, columns, expected + more) as a, terminal(rows, columns, actual + more) as b:
                for kind, (count, example) in sorted(differences(a, b, rows, columns).items()):
                    print(f"{name}\t{phase}\t{kind}\t{count}\t{example}", flush=True)


# Where the model and Ghostty read the same bytes differently, each for a reason: the
# model follows tmux 3.3 or xterm where Ghostty does not (docs/screen-model.md, "Where it
# follows whom"), or Ghostty has a reading of its own. The fuzz corpus is compared up to
# the first of these (`cut`); the reference transcripts are compared whole and their
# differences listed in allowed-differences.txt.
DISPUTES = {
    "BS with a wrap pending": "the model and tmux only clear the wrap; xterm and Ghostty move back",
    "erase with a wrap pending": "EL, ED, ECH: the model and tmux keep the last column; xterm and Ghostty erase it",
    "RI with a wrap pending": "the model and xterm clear the wrap; tmux and Ghostty keep it",
    "DECALN": "Ghostty fills in the pen's colours and drops its other attributes; xterm and tmux do not",
    "G2 and G3": "tmux and the model have G0 and G1 only; xterm and Ghostty designate and shift into G2, G3",
    "REP": "the model and tmux repeat only an ASCII character printed just before, to the line's end",
    "DECSTR": "the model resets the pen as xterm does; Ghostty keeps it",
    "DECCOLM": "the model and tmux clear and home; Ghostty, as xterm, changes the width",
    "DECSCA, DECSED, DECSEL": "tmux and the model ignore them; xterm and Ghostty protect and erase selectively",
    "SCOSC with parameters": "xterm, tmux and the model save the cursor at `CSI Pl ; Pr s` without DECLRMM; Ghostty does not",
    "empty colour component": "tmux and the model skip a direct or indexed colour with an empty component; xterm and Ghostty read 0",
    "DCS holding CAN, SUB or ESC": "tmux and the model end a DCS only at ST; xterm and Ghostty at CAN, SUB or ESC",
    "OSC 8 with parameters and no URI": "xterm, tmux and the model end the link; Ghostty keeps it",
    "C1 control": "U+0080-U+009F: the model and tmux have no C1 controls; Ghostty, as xterm, acts on them",
    "beyond Latin-1 in a 94-character set": "Ghostty blanks a character from U+0100 up while the line-drawing or UK set "
                                            "is designated; xterm, tmux and the model show it",
    "wide character on a screen one column wide": "tmux and the model drop it; Ghostty wraps a blank",
    "more parameters than the function takes": "xterm, tmux and the model use the first ones; Ghostty ignores "
                                                "the sequence (`CSI 9;1 B`, `CSI 2;;5 r`, `CSI 1:2 A`)",
    "combining mark on a blank": "tmux and the model join it to the blank cell before the cursor; Ghostty drops it",
    "47 or 1047 with a wrap pending": "the model and xterm keep the wrap across the switch; tmux and Ghostty drop it",
    "47 or 1047 inside a hyperlink": "the model keeps the link across the switch (one pen for both screens, as "
                                     "xterm's SGR); Ghostty ends it",
    "CBT with a wrap pending": "the model and tmux move back and clear the wrap; xterm and Ghostty keep it pending",
    "DECAWM set with a wrap pending": "with autowrap reset, xterm and Ghostty still set the wrap at the last column, "
                                      "which acts once autowrap is set; tmux and the model do not",
    "1049 after DECSC": "the saved cursors follow tmux, one DECSC slot for both screens and 1049's own; xterm and "
                        "Ghostty keep a DECSC slot per screen, 1049 saving into the main one's",
    "wrap at a right margin": "the model, as xterm, marks a row wrapped at a right margin short of the last column "
                              "as going on in the next; Ghostty marks only a wrap at the last column",
    "double-size line": "the model, as xterm and libvterm, writes text in the first half of a row that "
                        "`ESC # 3`, `4` or `6` made double-size; Ghostty ignores line sizes (every row single)",
    "ESC k": "tmux's window name, a string to tmux and the model; xterm and Ghostty ignore the ESC k and print the rest",
}


def tokens(data):
    """(start, end, kind, value) of each thing in a stream: a character, a C0 control, an
    escape or control sequence, or a string (OSC, DCS, SOS, PM, APC), read as the model's
    parser reads them closely enough to find the DISPUTES: C0 controls inside a sequence
    act and the sequence goes on, bytes from 0x80 in it are passed over (a sequence's
    value ends with whether there were any, and the controls); a DCS ends only at ST, the
    other strings at ESC, CAN or SUB too."""
    index, count = 0, len(data)
    while index < count:
        byte = data[index]
        if byte != 0x1B:
            if byte < 0x20 or byte == 0x7F:
                yield index, index + 1, "control", byte
                index += 1
                continue
            length = 1 if byte < 0xC0 else 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
            yield index, index + length, "character", data[index:index + length].decode("utf-8", "replace")[0]
            index += length
            continue
        # The sequence's bytes without the C0 controls and the bytes from 0x80 in it.
        body, beyond, controls, end, cancelled = bytearray(), False, bytearray(), index + 1, False
        while end < count:
            byte = data[end]
            if byte in (0x18, 0x1A, 0x1B):
                # CAN and SUB cancel the sequence; ESC begins another.
                cancelled = True
                end += byte != 0x1B
                break
            end += 1
            if byte < 0x20 or byte == 0x7F:
                controls.append(byte)
                continue
            if byte >= 0x80:
                beyond = True
                continue
            body.append(byte)
            if body[0] == 0x5B:
                if len(body) > 1 and 0x40 <= byte <= 0x7E:
                    break
            elif body[0] in (0x5D, 0x50, 0x58, 0x5E, 0x5F) or not 0x20 <= byte <= 0x2F:
                break
        else:
            return
        if cancelled:
            yield index, end, "cancelled", bytes(controls)
            index = end
            continue
        if body[0] in (0x5D, 0x50, 0x58, 0x5E, 0x5F):
            stop = end
            while stop < count:
                if data[stop] == 0x1B and stop + 1 < count and data[stop + 1] == 0x5C:
                    stop += 2
                    break
                if body[0] != 0x50 and data[stop] in (0x1B, 0x18, 0x1A, 0x07):
                    stop += data[stop] != 0x1B
                    break
                stop += 1
            yield index, stop, "dcs" if body[0] == 0x50 else "osc", data[end:stop]
            index = stop
        elif body[0] == 0x5B:
            text = body[1:].decode()
            split = len(text) - len(text.lstrip("0123456789:;<=>?"))
            final = len(text) - 1
            yield index, end, "csi", (text[:split], text[split:final].encode(), text[final], (beyond, bytes(controls)))
            index = end
        else:
            yield index, end, "esc", (bytes(body[:-1]), chr(body[-1]), (beyond, bytes(controls)))
            index = end


def colour_with_empty_component(parameters):
    fields = parameters.split(";")
    for index, field in enumerate(fields):
        parts = field.split(":")
        if parts[0] not in ("38", "48", "58"):
            continue
        if len(parts) > 1:
            space = parts[1]
            values = (parts[3:6] if len(parts) >= 6 else parts[2:5]) if space == "2" else parts[2:3]
        else:
            space = fields[index + 1] if index + 1 < len(fields) else None
            values = fields[index + 2:index + 5] if space == "2" else fields[index + 2:index + 3]
        return space in ("2", "5") and "" in values
    return False


# Control functions that take at most one parameter, and two; Ghostty ignores one given
# more, where xterm, tmux and the model take the first ones.
ONE_PARAMETER = "@ABCDEFGIJKLMPSTXZ`abde"
TWO_PARAMETERS = "Hfr"
SCREEN_SWITCHES = ("47", "1047")


class Reading:
    """What the search for DISPUTES keeps of the stream read so far, beside Ghostty's
    state: whether a line-drawing or UK set was designated (Ghostty does not say which set
    is shifted in, so any designation counts from there on), whether a hyperlink is open,
    and whether DECSC saved a cursor."""

    def __init__(self):
        self.designated = False
        self.linked = False
        self.saved = False

    def dispute(self, term, kind, value, columns):
        """The DISPUTES entry the thing is, if any, in the state Ghostty is in before it."""
        def wrap_pending():
            return bool(term.get("cursor_pending_wrap", "bool"))
        controls = {"esc": lambda: value[-1][1], "csi": lambda: value[-1][1], "cancelled": lambda: value,
                    "control": lambda: bytes([value])}.get(kind, bytes)()
        if 0x08 in controls and wrap_pending():
            return "BS with a wrap pending"
        if kind == "control":
            return None
        if kind == "esc":
            intermediates, final, _ = value
            if intermediates == b"" and final == "M" and wrap_pending():
                return "RI with a wrap pending"
            if intermediates == b"#" and final == "8":
                return "DECALN"
            if intermediates == b"#" and final in "346":
                return "double-size line"
            if intermediates in (b"*", b"+") or (intermediates == b"" and final in "noNO|}~"):
                return "G2 and G3"
            if intermediates == b"" and final == "k":
                return "ESC k"
            return None
        if kind == "csi":
            parameters, intermediates, final, _ = value
            private = parameters[:1] in ("?", ">", "<", "=")
            modes = parameters[1:].split(";") if parameters.startswith("?") else []
            if intermediates == b"!" and final == "p":
                return "DECSTR"
            if intermediates == b'"' and final == "q" or parameters.startswith("?") and final in "JK":
                return "DECSCA, DECSED, DECSEL"
            if intermediates != b"":
                return None
            if final in "hl" and "3" in modes:
                return "DECCOLM"
            if final == "h" and "7" in modes and wrap_pending() and not term.mode(7):
                return "DECAWM set with a wrap pending"
            if final in "hl" and "1049" in modes and self.saved:
                return "1049 after DECSC"
            if final in "hl" and any(mode in SCREEN_SWITCHES for mode in modes):
                if wrap_pending():
                    return "47 or 1047 with a wrap pending"
                if self.linked:
                    return "47 or 1047 inside a hyperlink"
            if private:
                return None
            if final in "KJX" and wrap_pending():
                return "erase with a wrap pending"
            if final == "Z" and wrap_pending():
                return "CBT with a wrap pending"
            if final == "b":
                return "REP"
            if final == "s" and parameters and not term.mode(69):
                return "SCOSC with parameters"
            if final == "m" and colour_with_empty_component(parameters):
                return "empty colour component"
            fields = len(parameters.split(";")) if parameters else 0
            if final in ONE_PARAMETER and fields > 1 or final in TWO_PARAMETERS and fields > 2:
                return "more parameters than the function takes"
            if final != "m" and ":" in parameters:
                return "more parameters than the function takes"
            return None
        if kind == "dcs":
            body = value[:-2] if value.endswith(b"\x1b\\") else value
            return "DCS holding CAN, SUB or ESC" if re.search(rb"[\x18\x1a\x1b]", body) else None
        if kind == "osc":
            if re.match(rb"8;[^;]+;([\x07\x18\x1a]|\x1b\\|$)", value):
                return "OSC 8 with parameters and no URI"
            return None
        if kind != "character":
            return None
        code = ord(value)
        if wrap_pending() and term.mode(7) and term.cursor[0] != columns - 1:
            return "wrap at a right margin"
        if 0x80 <= code < 0xA0:
            return "C1 control"
        if code >= 0x100 and self.designated:
            return "beyond Latin-1 in a 94-character set"
        if columns == 1 and unicodedata.east_asian_width(value) in "WF":
            return "wide character on a screen one column wide"
        if unicodedata.category(value) in ("Mn", "Me") or value in "\u200d\ufe0e\ufe0f" or \
                0x1160 <= code < 0x1200 or 0xD7B0 <= code < 0xD800:
            x, y = term.cursor
            x -= not (wrap_pending() and term.mode(7))
            if x < 0 or cell(term, x, y)["text"] == " ":
                return "combining mark on a blank"
        return None

    def advance(self, kind, value):
        if kind == "esc" and value[0] in (b"(", b")") and value[1] in "0A":
            self.designated = True
        if kind == "osc" and value.startswith(b"8;"):
            self.linked = re.match(rb"8;[^;]*;[^\x07\x18\x1a\x1b]", value) is not None
        if kind == "esc" and value[:2] == (b"", "7") or kind == "csi" and value[:3] == ("", b"", "s"):
            self.saved = True


def cut(data, rows, columns):
    """The input without DEL and without the bytes from 0x80 inside escape and control
    sequences (which the model ignores, as tmux does, and Ghostty does not), up to its
    first dispute; and that dispute's name."""
    data, kept = data.replace(b"\x7f", b""), bytearray()
    reading = Reading()
    with Terminal(cols=columns, rows=rows, scrollback=0) as term:
        for start, end, kind, value in tokens(data):
            found = reading.dispute(term, kind, value, columns)
            if found:
                assert found in DISPUTES, found
                return bytes(kept), found
            reading.advance(kind, value)
            part = data[start:end]
            if kind in ("esc", "csi") and value[-1][0]:
                part = bytes(byte for byte in part if byte < 0x80)
            kept += part
            term.feed(part)
    return bytes(kept), None


def cut_inputs(manifest):
    for line in open(manifest, encoding="utf-8"):
        name, rows, columns, path = line.rstrip("\n").split("\t")
        data, found = cut(open(path, "rb").read(), int(rows), int(columns))
        open(path + ".cut", "wb").write(data)
        print(f"{name}\t{found or '-'}", flush=True)


def perl_string(expression):
    """The bytes of one of libvterm's PUSH arguments: Perl double-quoted strings joined
    with `.` and repeated with `x N`."""
    result = b""
    escapes = {"e": b"\x1b", "n": b"\n", "r": b"\r", "t": b"\t", "b": b"\b", "a": b"\a",
               "0": b"\0", "f": b"\f"}
    for literal, count in re.findall(r'"((?:[^"\\]|\\.)*)"(?:\s*x\s*(\d+))?', expression):
        part = bytearray()
        index = 0
        while index < len(literal):
            char = literal[index]
            if char != "\\":
                part += char.encode()
                index += 1
                continue
            following = literal[index + 1]
            if following == "x" and literal[index + 2] == "{":
                end = literal.index("}", index)
                part += chr(int(literal[index + 3:end], 16)).encode()
                index = end + 1
            elif following == "x":
                digits = re.match(r"[0-9A-Fa-f]{1,2}", literal[index + 2:]).group(0)
                part.append(int(digits, 16))
                index += 2 + len(digits)
            else:
                part += escapes.get(following, following.encode())
                index += 2
        result += bytes(part) * (int(count) if count else 1)
    return result


def libvterm_cases(path):
    """Each run of PUSHes from an INIT or RESET to the next (25x80, libvterm's harness
    size), cut at a RESIZE: the model and Ghostty resize differently (no reflow)."""
    base = os.path.basename(path)[:-len(".test")]
    cases, current, cut = [], None, False
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if line in ("INIT", "RESET"):
            if current:
                cases.append(current)
            current, cut = bytearray(), False
        elif line.startswith("RESIZE"):
            cut = True
        elif current is not None and not cut:
            repeat = 1
            match = re.match(r"\$REP\s+(\d+):\s*(.*)", line)
            if match:
                repeat, line = int(match.group(1)), match.group(2)
            if line.startswith("PUSH "):
                current += perl_string(line[5:]) * repeat
    if current:
        cases.append(current)
    return [(f"libvterm/{base}#{number}", 25, 80, data) for number, data in enumerate(cases, 1) if data]


def alacritty_cases(directory):
    cases = []
    for recording in sorted(glob.glob(os.path.join(directory, "*", "alacritty.recording"))):
        folder = os.path.dirname(recording)
        size = json.load(open(os.path.join(folder, "size.json")))
        data = open(recording, "rb").read()
        cases.append((f"alacritty/{os.path.basename(folder)}", size["screen_lines"], size["columns"], data))
    return cases


def write_cases(directory, out):
    cases = alacritty_cases(os.path.join(directory, "alacritty"))
    for test in sorted(glob.glob(os.path.join(directory, "libvterm", "t", "*.test"))):
        cases += libvterm_cases(test)
    for name, rows, columns, data in cases:
        file = os.path.join(out, name.replace("/", "_").replace("#", "_"))
        open(file + ".bytes", "wb").write(data)
        open(file + ".size", "w").write(f"{rows} {columns}")
        print(f"{name}\t{file}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["compare"]:
        compare(sys.argv[2])
    elif sys.argv[1:2] == ["cut"]:
        cut_inputs(sys.argv[2])
    elif sys.argv[1:2] == ["cases"]:
        write_cases(sys.argv[2], sys.argv[3])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
