/// The text for `--help` and `--version`, each without a final newline.
enum Usage {
    static let version = "idlewrap \(Version.number)"

    static let help = """
        USAGE: idlewrap [OPTIONS] [--] [COMMAND [ARG...]]
               idlewrap --set-password [FILE]

        Run COMMAND in a pseudo-terminal and lock the terminal after a time without
        input, until the password is typed. COMMAND defaults to the user's shell
        ($SHELL, else the passwd entry's). Options end at the first operand or at
        '--'. SIGUSR1 locks at once.

        OPTIONS:
          -t, --timeout DURATION  Idle time before locking (default: $IDLEWRAP_TIMEOUT,
                                  else 5m). DURATION: off; seconds (90, 1.5); or terms
                                  with units h, m, s, ms (1h30m, 250ms). 0, off: never.
          -a, --auth METHOD       How an unlock is checked: pam (login password), ask
                                  (a password asked at start) or file (default: file
                                  if the password file exists, else pam, else ask).
          --password-file FILE    Password hash for --auth file; implies it (default:
                                  $XDG_CONFIG_HOME/idlewrap/password).
          --set-password [FILE]   Ask for a password, write its hash to FILE (default:
                                  the password file) and exit.
          --pam-service NAME      PAM service name (default: idlewrap).
          --pam-confdir DIR       Directory of PAM configuration (default: /etc/pam.d).
          -m, --message TEXT      An extra line shown on the lock screen.
          -k, --lock-key KEY      A control key that locks at once, in caret notation
                                  (^], ^\\, ^@; not ^[). Default: none.
          --on-lock CMD           Run CMD with /bin/sh -c when the session locks.
          --on-unlock CMD         Run CMD with /bin/sh -c when the session unlocks.
          --kill-after DURATION   End the session once locked this long (default: off).
          --hold-limit SIZE       Most output held while locked, in bytes with an
                                  optional K, M or G (default: 8M).
          --wipe-scrollback       Also erase the terminal's scrollback when locking.
          -l, --login             Run the default shell as a login shell.
          --nested                Wrap even when already inside idlewrap.
          -q, --quiet             Print no notices on stderr.
          -h, --help              Show this help and exit.
          -V, --version           Show the version and exit.

        EXIT STATUS:
          125     idlewrap failed, or bad usage
          126     COMMAND was found but could not be run
          127     COMMAND was not found
          128+N   COMMAND was killed by signal N
          else    COMMAND's exit status
        """
}
