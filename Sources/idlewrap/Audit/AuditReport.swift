/// What `--audit` found: one `AuditCheck` per check and subject, for people as a table
/// and for compliance pipelines as one JSON object (its keys are stable and documented in
/// docs/compliance.md). Each check says, as an auditor reads it, its id, its status, the
/// control it serves, the evidence it looked at, and what to do about a gap.
struct AuditReport {
    /// `host` (root: every account) or `user` (one's own logins).
    let scope: String
    let user: String
    let host: String
    /// The idle lock the checks hold the host to: 15 minutes, or `--timeout`.
    let target: Duration
    let checks: [AuditCheck]

    var gaps: Int { checks.count { $0.status == .gap } }

    /// 0 with no gap, 1 with gaps.
    var exitStatus: Int32 { gaps == 0 ? ExitStatus.success : 1 }

    func count(_ status: AuditStatus) -> Int { checks.count { $0.status == status } }

    /// The checks as a table, each followed by its evidence and suggestion, then a summary.
    var table: String {
        let header = ["STATUS", "CONTROL", "CHECK", "SUBJECT", "FINDING"]
        let rows = checks.map { [$0.status.rawValue, $0.control.rawValue, $0.id, $0.subject ?? "-", $0.finding] }
        var widths = header.map(\.count)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        func line(_ row: [String]) -> String {
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
        }
        var text = "idlewrap --audit of \(terminalSafe(host)) (\(scope) \(terminalSafe(user))),"
        text += " idle lock target \(formatDuration(target))\n\n"
        text += line(header) + "\n"
        for (check, row) in zip(checks, rows) {
            text += terminalSafe(line(row)) + "\n"
            for item in check.evidence { text += "        " + terminalSafe(item) + "\n" }
            if let suggestion = check.suggestion { text += "        suggestion: " + terminalSafe(suggestion) + "\n" }
        }
        text +=
            "\n\(gaps) gap\(gaps == 1 ? "" : "s"), \(count(.pass)) passed, \(count(.notApplicable)) not applicable\n"
        return text
    }

    /// One JSON object: the audit's context, a summary, and the `checks` array.
    var json: String {
        JSONText.object([
            ("host", JSONText.string(host)),
            ("scope", JSONText.string(scope)),
            ("user", JSONText.string(user)),
            ("target_timeout_seconds", String(target.wholeSeconds)),
            (
                "summary",
                JSONText.object(AuditStatus.allCases.map { ($0.rawValue, String(count($0))) })
            ),
            ("checks", JSONText.array(checks.map(\.json))),
        ]) + "\n"
    }
}

enum AuditStatus: String, CaseIterable, Sendable {
    case pass, gap
    case notApplicable = "n/a"
}

/// The NIST SP 800-53 controls the checks serve.
enum AuditControl: String, Sendable {
    /// Device lock: the session locks after inactivity, and only its user opens it.
    case deviceLock = "AC-11"
    /// Pattern hiding: the lock hides what was on the screen.
    case patternHiding = "AC-11(1)"
    /// Session termination.
    case sessionTermination = "AC-12"
}

/// One check of one subject (an account, a file, a session).
struct AuditCheck: Equatable, Sendable {
    /// Stable: `account-wrapped`, `pam-unlock`, ... (docs/compliance.md lists them all).
    let id: String
    let status: AuditStatus
    let control: AuditControl
    /// What the check is about when it repeats per subject: the account, the file, the terminal.
    var subject: String? = nil
    /// One line: what was found.
    let finding: String
    /// What was looked at: `FILE:LINE: text`, a program's output line, a process.
    var evidence: [String] = []
    /// What to do about a gap (or a caveat of a pass).
    var suggestion: String? = nil

    var json: String {
        JSONText.object([
            ("id", JSONText.string(id)),
            ("status", JSONText.string(status.rawValue)),
            ("control", JSONText.string(control.rawValue)),
            ("subject", subject.map(JSONText.string) ?? "null"),
            ("finding", JSONText.string(finding)),
            ("evidence", "[" + evidence.map(JSONText.string).joined(separator: ", ") + "]"),
            ("suggestion", suggestion.map(JSONText.string) ?? "null"),
        ])
    }
}
