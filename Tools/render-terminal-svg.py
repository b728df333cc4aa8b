#!/usr/bin/env python3
"""Renders a terminal screen, as `tmux capture-pane -p -e` prints it, as an SVG
picture: monospace text on a grid, in a window frame, with the SGR attributes
tmux writes honoured (bold, dim, italic, underline, strikethrough, inverse,
the 8 and 16 colours, the 256-colour palette and direct RGB).

    tmux capture-pane -p -e | python3 Tools/render-terminal-svg.py \\
        --columns 80 --rows 24 [--cursor X,Y] [--title TEXT] > screen.svg

Each row is one line of input; a row is cut at --columns and missing rows are
blank. Characters that are wide in a terminal (East Asian Width W or F) take
two cells. Escape sequences other than SGR are dropped. Tools/lock-screen-picture
uses it for docs/lock-screen.svg.
"""
import argparse
import re
import sys
import unicodedata
from xml.sax.saxutils import escape

CELL_WIDTH = 8.4  # px; the advance of a 14 px monospace glyph
CELL_HEIGHT = 18
FONT_SIZE = 14
PADDING = 14
TITLE_BAR = 30
BACKGROUND = "#1d1f21"
FOREGROUND = "#d5d8d6"
# xterm's 16 colours, a little softened, as most emulators ship them.
PALETTE16 = [
    "#1d1f21", "#cc6666", "#b5bd68", "#f0c674", "#81a2be", "#b294bb", "#8abeb7", "#c5c8c6",
    "#666666", "#d54e53", "#b9ca4a", "#e7c547", "#7aa6da", "#c397d8", "#70c0b1", "#eaeaea",
]


def palette256(index):
    if index < 16:
        return PALETTE16[index]
    if index < 232:
        index -= 16
        levels = [0, 95, 135, 175, 215, 255]
        r, g, b = levels[index // 36], levels[index // 6 % 6], levels[index % 6]
        return "#%02x%02x%02x" % (r, g, b)
    grey = 8 + 10 * (index - 232)
    return "#%02x%02x%02x" % (grey, grey, grey)


# SGR parameters that set or clear attributes.
ATTRIBUTES = {
    1: {"bold": True},
    2: {"dim": True},
    3: {"italic": True},
    4: {"underline": True},
    21: {"underline": True},
    7: {"inverse": True},
    9: {"strike": True},
    22: {"bold": False, "dim": False},
    23: {"italic": False},
    24: {"underline": False},
    27: {"inverse": False},
    29: {"strike": False},
}


class Pen:
    def __init__(self):
        self.reset()

    def reset(self):
        self.fg = None  # None: the default colour
        self.bg = None
        self.bold = self.dim = self.italic = self.underline = False
        self.strike = self.inverse = False

    def key(self):
        return (self.fg, self.bg, self.bold, self.dim, self.italic, self.underline, self.strike, self.inverse)

    def apply(self, parameters):
        # tmux writes both `38;5;n` and `38:5:n`; treat colons as semicolons.
        numbers = [int(p) if p else 0 for p in parameters.replace(":", ";").split(";")] or [0]
        i = 0
        while i < len(numbers):
            n = numbers[i]
            if n == 0:
                self.reset()
            elif n in ATTRIBUTES:
                for name, value in ATTRIBUTES[n].items():
                    setattr(self, name, value)
            elif 30 <= n <= 37:
                self.fg = PALETTE16[n - 30]
            elif 40 <= n <= 47:
                self.bg = PALETTE16[n - 40]
            elif 90 <= n <= 97:
                self.fg = PALETTE16[n - 90 + 8]
            elif 100 <= n <= 107:
                self.bg = PALETTE16[n - 100 + 8]
            elif n == 39:
                self.fg = None
            elif n == 49:
                self.bg = None
            elif n in (38, 48) and i + 1 < len(numbers):
                colour = None
                if numbers[i + 1] == 5 and i + 2 < len(numbers):
                    colour = palette256(numbers[i + 2] % 256)
                    i += 2
                elif numbers[i + 1] == 2 and i + 4 < len(numbers):
                    colour = "#%02x%02x%02x" % tuple(min(v, 255) for v in numbers[i + 2:i + 5])
                    i += 4
                if n == 38:
                    self.fg = colour
                else:
                    self.bg = colour
            i += 1


SEQUENCE = re.compile(r"\x1b\[([0-9;:?]*)([@-~])|\x1b[()][0-9A-Za-z]|\x1b.|[\x00-\x1f\x7f]")


def cells_of(line, columns):
    """The row as a list of (character, pen key, width); a wide character's second
    cell is ("", key, 0)."""
    pen = Pen()
    cells = []
    position = 0
    for match in SEQUENCE.finditer(line + "\x1b[0m"):
        for character in line[position:match.start()]:
            width = 2 if unicodedata.east_asian_width(character) in ("W", "F") else 1
            if unicodedata.combining(character) and cells:
                text, key, w = cells[-1]
                cells[-1] = (text + character, key, w)
                continue
            if len(cells) + width > columns:
                break
            cells.append((character, pen.key(), width))
            if width == 2:
                cells.append(("", pen.key(), 0))
        if match.group(2) == "m":
            pen.apply(match.group(1))
        position = match.end()
    while len(cells) < columns:
        cells.append((" ", Pen().key(), 1))
    return cells[:columns]


def render(lines, columns, rows, cursor, title):
    width = PADDING * 2 + columns * CELL_WIDTH
    height = TITLE_BAR + PADDING * 2 + rows * CELL_HEIGHT
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g"'
        ' xml:space="preserve" role="img" aria-label="%s">' % (width, height, width, height, escape(title, {'"': "&quot;"})),
        "<title>%s</title>" % escape(title),
        "<style>text{font-family:'DejaVu Sans Mono','Menlo','Consolas','Liberation Mono',monospace;"
        "font-size:%dpx;white-space:pre}</style>" % FONT_SIZE,
        '<rect width="%g" height="%g" rx="8" fill="%s"/>' % (width, height, BACKGROUND),
        '<rect width="%g" height="%d" rx="8" fill="#3a3d41"/>' % (width, TITLE_BAR),
        '<rect y="%d" width="%g" height="8" fill="#3a3d41"/>' % (TITLE_BAR - 8, width),
    ]
    for i, colour in enumerate(["#ff5f57", "#febc2e", "#28c840"]):
        out.append('<circle cx="%d" cy="%d" r="6" fill="%s"/>' % (18 + 20 * i, TITLE_BAR // 2, colour))
    out.append(
        '<text x="%g" y="%d" fill="#c5c8c6" text-anchor="middle">%s</text>'
        % (width / 2, TITLE_BAR // 2 + 5, escape(title)))
    top = TITLE_BAR + PADDING
    for row in range(rows):
        cells = cells_of(lines[row] if row < len(lines) else "", columns)
        y = top + row * CELL_HEIGHT
        baseline = y + CELL_HEIGHT - 5
        column = 0
        while column < columns:
            key = cells[column][1]
            end = column
            while end < columns and cells[end][1] == key:
                end += 1
            fg, bg, bold, dim, italic, underline, strike, inverse = key
            fg, bg = fg or FOREGROUND, bg or BACKGROUND
            if inverse:
                fg, bg = bg, fg
            x = PADDING + column * CELL_WIDTH
            if bg != BACKGROUND:
                out.append(
                    '<rect x="%g" y="%d" width="%g" height="%d" fill="%s"/>'
                    % (x, y, (end - column) * CELL_WIDTH, CELL_HEIGHT, bg))
            # One <text> per run of the same pen, without its trailing blanks; each
            # character pinned to its cell so a fallback font cannot drift.
            run = cells[column:end]
            lead = 0
            if not (underline or strike):
                while run and run[-1][0] in (" ", ""):
                    run = run[:-1]
                while lead < len(run) and run[lead][0] == " ":
                    lead += 1
            run = run[lead:]
            x += lead * CELL_WIDTH
            if run:
                xs = []
                text = ""
                for offset, (character, _, w) in enumerate(run):
                    if w == 0:
                        continue
                    xs.append("%g" % (x + offset * CELL_WIDTH))
                    text += character
                attributes = ['fill="%s"' % fg]
                if bold:
                    attributes.append('font-weight="bold"')
                if dim:
                    attributes.append('fill-opacity="0.6"')
                if italic:
                    attributes.append('font-style="italic"')
                decorations = [name for name, on in (("underline", underline), ("line-through", strike)) if on]
                if decorations:
                    attributes.append('text-decoration="%s"' % " ".join(decorations))
                out.append(
                    '<text x="%s" y="%d" %s>%s</text>' % (" ".join(xs), baseline, " ".join(attributes), escape(text)))
            column = end
    if cursor is not None:
        x, y = cursor
        if 0 <= x < columns and 0 <= y < rows:
            out.append(
                '<rect x="%g" y="%d" width="%g" height="%d" fill="%s" fill-opacity="0.8"/>'
                % (PADDING + x * CELL_WIDTH, top + y * CELL_HEIGHT + 1, CELL_WIDTH, CELL_HEIGHT - 2, FOREGROUND))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--columns", type=int, default=80)
    parser.add_argument("--rows", type=int, default=24)
    parser.add_argument("--cursor", help="X,Y: draw a block cursor in that cell (0-based, as tmux's cursor_x, cursor_y)")
    parser.add_argument("--title", default="terminal")
    arguments = parser.parse_args()
    cursor = None
    if arguments.cursor:
        x, y = arguments.cursor.split(",")
        cursor = (int(x), int(y))
    lines = sys.stdin.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    sys.stdout.write(render(lines, arguments.columns, arguments.rows, cursor, arguments.title))


if __name__ == "__main__":
    main()
