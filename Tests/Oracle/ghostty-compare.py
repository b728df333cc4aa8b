#!/usr/bin/env python3
"""The screen model's independent oracle: libghostty-vt (Ghostty's terminal core, through
the pyghostty package), which nobody on idlewrap wrote.

    ghostty-compare.py compare MANIFEST
        MANIFEST has one case a line: NAME TAB ROWS TAB COLUMNS TAB EXPECTED TAB ACTUAL, the
        last two files of bytes. EXPECTED (the command's raw output) goes into one terminal,
        ACTUAL (everything idlewrap wrote to the terminal: the output up to the lock, the lock
        screen, the unlock's repaint) into another, and every cell (text, width, colours,
        attributes, underline style and colour, hyperlink), each row's wrap flag, the
        cursor (position, pending wrap, visibility, shape), the screen shown, the modes,
        the kitty keyboard flags, the title and the working directory are compared: as
        they are; after both get the same further output (PROBE, which shows what a
        screen cannot: the pen, character sets, saved cursor, tab stops, margins); and, when the alternate screen shows, the main screen
        behind it. One line a difference: NAME TAB PHASE TAB KIND TAB COUNT TAB EXAMPLE.
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


def state(term):
    result = {
        "cursor": term.cursor,
        "cursor.pendingWrap": bool(term.get("cursor_pending_wrap", "bool")),
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
    elif sys.argv[1:2] == ["cases"]:
        write_cases(sys.argv[2], sys.argv[3])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
