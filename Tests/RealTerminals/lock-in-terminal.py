#!/usr/bin/env python3
"""Runs idlewrap in a real terminal emulator on an X display (Xvfb), locks and unlocks it,
and compares screenshots of the display before the lock and after the unlock, pixel for
pixel (xwd of the root window: the X server draws no pointer into it), and the window
titles. It runs its own X server (Xvfb).

    lock-in-terminal.py TERMINAL IDLEWRAP PASSWORD_FILE OUTPUT_FILE WORKDIR

TERMINAL is one of the terminals below. OUTPUT_FILE holds the bytes the command writes
(with the terminal's output processing off: as they are). The command writes them,
then waits, flashing reverse video when asked (SIGUSR2) so that the terminal paints its
whole window before each screenshot; the password typed at the lock screen (xdotool) is
"open sesame". Prints
one line: `same`, or `different N` (N pixels) with the screenshots kept in WORKDIR as
before.xwd and after.xwd; a failure to get that far prints `error: WHAT`. Blinking is
off in every terminal (cursor and text), so a screenshot is stable once drawn.
"""
import os
import signal
import subprocess
import sys
import time

COLUMNS, ROWS = 80, 24
FONT = "DejaVu Sans Mono"


def terminals(command, workdir):
    """The command line of each terminal, running `command` (a list), 80x24 at the top left."""
    shell = ["sh", "-c", 'exec "$@"', "sh"] + command
    xterm = ["xterm", "-geometry", "80x24+0+0", "-fa", FONT, "-fs", "11", "-xrm", "XTerm*cursorBlink: false",
             "-xrm", "XTerm*allowTitleOps: true",
             "-xrm", "XTerm*showBlinkAsBold: true", "-e"] + shell
    return {
        "xterm": xterm,
        "urxvt": ["urxvt", "-geometry", "80x24+0+0", "-fn", f"xft:{FONT}:size=11", "+bc", "-e"] + shell,
        "st": ["st", "-g", "80x24+0+0", "-f", f"{FONT}:size=11", "-e"] + shell,
        "mlterm": ["mlterm", "-g", "80x24+0+0", "--fontsize=14", "--blink=false", "-e"] + shell,
        "kitty": ["kitty", "--config", "NONE", "-o", "cursor_blink_interval=0", "-o", "initial_window_width=80c",
                  "-o", "initial_window_height=24c", "-o", f"font_family={FONT}", "-o", "font_size=11",
                  "-o", "remember_window_size=no", "-o", "placement_strategy=top-left"] + shell,
        "alacritty": ["alacritty", "--config-file", "/dev/null", "-o", "window.dimensions.columns=80",
                      "-o", "window.dimensions.lines=24", "-o", "cursor.style.blinking=Never",
                      "-o", f"font.normal.family={FONT}", "-o", "font.size=11", "-e"] + shell,
        "konsole": ["konsole", "--nofork", "--separate", "--hide-menubar", "--hide-tabbar", "-p",
                    "BlinkingCursorEnabled=false", "-p", "TerminalColumns=80", "-p", "TerminalRows=24",
                    "-p", f"Font={FONT},11", "-e"] + shell,
        "xfce4-terminal": ["xfce4-terminal", "--disable-server", "--geometry", "80x24+0+0", "--hide-menubar",
                           "--hide-toolbar", "--hide-scrollbar", f"--font={FONT} 11", "-x"] + shell,
    }


def environment(display, workdir):
    env = dict(os.environ, DISPLAY=display, LIBGL_ALWAYS_SOFTWARE="1", XDG_CONFIG_HOME=workdir + "/config",
               XDG_RUNTIME_DIR=workdir + "/runtime", HOME=workdir, LANG="C.UTF-8", LC_ALL="C.UTF-8")
    env.pop("TERM", None)
    for name in ("WAYLAND_DISPLAY", "TMUX"):
        env.pop(name, None)
    os.makedirs(workdir + "/config/xfce4/terminal", exist_ok=True)
    os.makedirs(workdir + "/runtime", mode=0o700, exist_ok=True)
    with open(workdir + "/config/xfce4/terminal/terminalrc", "w") as rc:
        rc.write("[Configuration]\nMiscCursorBlinks=FALSE\nMiscAlwaysShowTabs=FALSE\nMiscMenubarDefault=FALSE\n"
                 "MiscToolbarDefault=FALSE\nScrollingBar=TERMINAL_SCROLLBAR_NONE\n")
    return env


def screenshot(display, path):
    with open(path, "wb") as out:
        subprocess.run(["xwd", "-root", "-silent", "-display", display], stdout=out, check=True, timeout=30)
    return open(path, "rb").read()


def settled(display, path, deadline, differs_from=()):
    """A screenshot that stays the same for two seconds (and differs from each of
    `differs_from`): kitty and alacritty draw with Mesa's software renderer, slowly."""
    last, same = None, 0
    while time.monotonic() < deadline:
        now = screenshot(display, path)
        same = same + 1 if now == last else 0
        if same >= 4 and now not in differs_from:
            return now
        last = now
        time.sleep(0.5)
    return None


def redrawn(command_pid, flashes, display, path, deadline):
    """A settled screenshot of what the terminal draws from its screen as it is: the
    command flashes reverse video on and off (DECSCNM, a visual bell, half a second),
    which makes the terminal paint its whole window twice. What a terminal painted as the
    bytes arrived can differ by a pixel where its paints met (konsole seams an underline
    there): that is its drawing's history, not its screen."""
    count = os.path.getsize(flashes) if os.path.exists(flashes) else 0
    os.kill(command_pid, signal.SIGUSR2)
    if not wait_for(lambda: os.path.exists(flashes) and os.path.getsize(flashes) > count, deadline):
        return None
    return settled(display, path, deadline)


def window_names(env):
    """The names (titles) of the visible windows, which a screenshot without a window
    manager does not show."""
    found = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", ""], env=env, capture_output=True,
                           timeout=30).stdout.split()
    names = []
    for window in found:
        name = subprocess.run(["xdotool", "getwindowname", window], env=env, capture_output=True, timeout=30)
        names.append(name.stdout.decode(errors="replace").strip())
    return sorted(names)


def soon():
    """The deadline of one wait: generous, since a loaded machine with Mesa's software
    renderer can take many seconds for a frame."""
    return time.monotonic() + 90


def wait_for(condition, deadline):
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


def pixels_differing(a, b):
    if len(a) != len(b):
        return max(len(a), len(b))
    return sum(1 for x, y in zip(a, b) if x != y)


def with_display(name, idlewrap, password_file, output_file, workdir):
    """Runs `main` on an X server of its own (Xvfb picks a free display number)."""
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
                              pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    try:
        number = b""
        while not number.endswith(b"\n"):
            chunk = os.read(read, 16)
            if not chunk:
                return "error: Xvfb did not start"
            number += chunk
        return main(":" + number.decode().strip(), name, idlewrap, password_file, output_file, workdir)
    finally:
        os.close(read)
        server.kill()
        server.wait()


def main(display, name, idlewrap, password_file, output_file, workdir):
    pid_file, drawn, command_pid_file = workdir + "/pid", workdir + "/drawn", workdir + "/command-pid"
    flashes = workdir + "/flashes"
    inner = ('stty -opost; trap \'printf "\\033[?5h"; sleep 0.5; printf "\\033[?5l"; echo >> "$3"\' USR2; '
             'cat "$0"; echo $$ > "$1"; touch "$2"; while :; do sleep 100000 & wait $!; done')
    script = 'echo $$ > "$0"; exec "$1" --password-file "$2" -t 0 -- sh -c "$3" "$4" "$5" "$6" "$7"'
    command = ["sh", "-c", script, pid_file, idlewrap, password_file, inner, output_file, command_pid_file, drawn,
               flashes]
    env = environment(display, workdir)
    empty = screenshot(display, workdir + "/empty.xwd")
    log = open(workdir + "/terminal.log", "wb")
    process = subprocess.Popen(terminals(command, workdir)[name], env=env, stdout=log, stderr=log,
                               start_new_session=True)
    try:
        if not wait_for(lambda: os.path.exists(drawn) and os.path.getsize(pid_file) > 0, soon()):
            return "error: the command never ran"
        pid = int(open(pid_file).read())
        command_pid = int(open(command_pid_file).read())
        # Keyboard focus follows the pointer without a window manager: put it over the window.
        subprocess.run(["xdotool", "mousemove", "200", "150"], env=env, check=True, timeout=30)
        if settled(display, workdir + "/drawn.xwd", soon(), differs_from=(empty,)) is None:
            return "error: the screen never settled before the lock"
        before = redrawn(command_pid, flashes, display, workdir + "/before.xwd", soon())
        if before is None:
            return "error: the screen never settled after its redraw"
        titles = window_names(env)
        os.kill(pid, signal.SIGUSR1)
        locked = settled(display, workdir + "/locked.xwd", soon(), differs_from=(before,))
        if locked is None:
            return "error: the lock screen never showed"
        subprocess.run(["xdotool", "type", "--delay", "40", "open sesame"], env=env, check=True, timeout=60)
        subprocess.run(["xdotool", "key", "Return"], env=env, check=True, timeout=30)
        # The unlock: a settled screen other than the lock screen (the password typed shows
        # nothing, so the lock screen's own screenshot stays the same until the unlock).
        if settled(display, workdir + "/unlocked.xwd", soon(), differs_from=(locked,)) is None:
            return "error: the screen never settled after the unlock"
        after = redrawn(command_pid, flashes, display, workdir + "/after.xwd", soon())
        if after is None:
            return "error: the screen never settled after its redraw"
        # Mesa's software renderer can stall for seconds on a loaded machine, so that a
        # settled screenshot is one frame short: give the terminal time to catch up.
        deadline = time.monotonic() + 15
        while after != before and time.monotonic() < deadline:
            time.sleep(0.5)
            after = screenshot(display, workdir + "/after.xwd")
        if after != before:
            return f"different {pixels_differing(before, after)} bytes of the screenshot"
        if window_names(env) != titles:
            return f"different title: {titles!r} before, {window_names(env)!r} after"
        return "same"
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


if __name__ == "__main__":
    if len(sys.argv) != 6:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    print(with_display(*sys.argv[1:]), flush=True)
