import Glibc
import PTYKit
import Testing

@testable import TestSupport
@testable import idlewrap

/// A private system bus (dbus-daemon with a configuration that allows
/// everything) with a stand-in for logind on it: a Python script that owns
/// org.freedesktop.login1, answers GetSession and GetSessionByPID with
/// `/org/freedesktop/login1/session/ID` (`…/bypid` for the latter; the ID
/// `gone` is unknown), prints who asked, and sends `Lock` for the path typed
/// to it as `lock PATH`. ListSessions lists the sessions added with
/// `addSession`, each an object whose properties can be read. Both processes
/// die with the value.
final class LogindBus {
    static let sessionPrefix = "/org/freedesktop/login1/session/"

    let address: String
    private let daemon: TerminalDriver
    private var logind: TerminalDriver
    private let script: String

    init(in directory: TemporaryDirectory) throws {
        let socket = directory.file("system_bus_socket")
        address = "unix:path=" + socket
        let configuration = try directory.write("bus.conf", LogindBus.configuration(listeningOn: socket))
        daemon = try TerminalDriver(["dbus-daemon", "--config-file=" + configuration, "--nofork"])
        try #require(daemon.waitUntil { access(socket, F_OK) == 0 }, "dbus-daemon did not start: \(daemon.text)")
        script = try directory.write("fake-logind.py", LogindBus.script)
        logind = try LogindBus.startLogind(script, address: address)
    }

    private static func startLogind(_ script: String, address: String) throws -> TerminalDriver {
        let logind = try TerminalDriver(
            ["/usr/bin/python3", script], environment: ["DBUS_SYSTEM_BUS_ADDRESS": address])
        try #require(logind.expect("logind ready"), "the stand-in for logind did not start: \(logind.text)")
        return logind
    }

    /// Stops the stand-in for logind and starts another, which owns the name
    /// under a new unique name, as when logind restarts.
    func restartLogind() throws {
        logind.signal(SIGTERM)
        #expect(logind.waitForExit() == .signaled(SIGTERM))
        logind = try LogindBus.startLogind(script, address: address)
    }

    /// Stops the stand-in for logind: the name has no owner, as on a bus without logind.
    func stopLogind() {
        logind.signal(SIGTERM)
        #expect(logind.waitForExit() == .signaled(SIGTERM))
    }

    /// Adds a session to ListSessions' answer, with the properties logind gives it
    /// (`tty` as logind says it, `pts/3`; empty for none).
    func addSession(
        _ id: String, uid: uid_t, user: String, tty: String, leader: pid_t, remote: Bool = false, type: String = "tty",
        sessionClass: String = "user"
    ) throws {
        let words = [
            id, String(uid), user, tty.isEmpty ? "-" : tty, String(leader), remote ? "yes" : "no", type, sessionClass,
        ]
        try logind.type("session " + words.joined(separator: " ") + "\n")
        #expect(logind.expect("added session \(id)"))
    }

    /// Stops the bus, as when the system's dbus-daemon goes away.
    func stopBus() {
        daemon.signal(SIGTERM)
        #expect(daemon.waitForExit() != nil)
    }

    /// The environment that points idlewrap at this bus.
    var environment: [String: String] { ["DBUS_SYSTEM_BUS_ADDRESS": address] }

    /// Waits until `method` was called and returns the caller's unique bus
    /// name (e.g. `:1.4`).
    func caller(of method: String) -> String? {
        guard logind.expect("\(method) ") else {
            Issue.record("no \(method) in: \(logind.text)")
            return nil
        }
        let lines = logind.text.split(whereSeparator: \.isNewline)
        guard let line = lines.last(where: { $0.hasPrefix(method + " ") }) else { return nil }
        return line.split(separator: " ").last.map(String.init)
    }

    /// Sends logind's Lock signal for `session` from the name's owner.
    func lock(_ session: String) throws {
        try logind.type("lock \(session)\n")
        #expect(logind.expect("sent Lock to \(session)"))
    }

    /// Runs `dbus-send --system ARGUMENTS` on this bus from a connection of
    /// its own, and returns its output once it succeeded.
    @discardableResult
    func send(_ arguments: [String]) throws -> String {
        let sender = try TerminalDriver(["dbus-send", "--system"] + arguments, environment: environment)
        let status = sender.waitForExit()
        try #require(status == .exited(0), "dbus-send \(arguments) failed: \(sender.text)")
        return sender.text
    }

    /// Returns once `name` has answered a Ping, so it has handled every
    /// message the bus had for it before.
    func ping(_ name: String) throws {
        try send(["--print-reply", "--dest=" + name, "/", "org.freedesktop.DBus.Peer.Ping"])
    }

    static func configuration(listeningOn socket: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>system</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>

        """
    }

    static let script = #"""
        import sys
        import dbus, dbus.service, dbus.lowlevel, dbus.mainloop.glib
        from gi.repository import GLib

        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        bus = dbus.SystemBus()
        PREFIX = "/org/freedesktop/login1/session/"
        MANAGER = "org.freedesktop.login1.Manager"
        SESSION = "org.freedesktop.login1.Session"
        PROPERTIES = "org.freedesktop.DBus.Properties"
        sessions = []

        class Session(dbus.service.Object):
            def __init__(self, words):
                sid, uid, user, tty, leader, remote, kind, cls = words
                self.listed = (sid, dbus.UInt32(int(uid)), user, "", dbus.ObjectPath(PREFIX + sid))
                self.properties = {
                    "Id": dbus.String(sid), "Name": dbus.String(user), "TTY": dbus.String("" if tty == "-" else tty),
                    "Leader": dbus.UInt32(int(leader)), "Remote": dbus.Boolean(remote == "yes"),
                    "Type": dbus.String(kind), "Class": dbus.String(cls),
                }
                dbus.service.Object.__init__(self, bus, PREFIX + sid)

            @dbus.service.method(PROPERTIES, in_signature="ss", out_signature="v")
            def Get(self, interface, name):
                if interface != SESSION or name not in self.properties:
                    raise dbus.exceptions.DBusException(
                        "No property " + name, name="org.freedesktop.DBus.Error.UnknownProperty")
                return self.properties[name]

        class Manager(dbus.service.Object):
            @dbus.service.method(MANAGER, in_signature="s", out_signature="o", sender_keyword="sender")
            def GetSession(self, session_id, sender=None):
                print("GetSession", session_id, "from", sender, flush=True)
                if session_id == "gone":
                    raise dbus.exceptions.DBusException(
                        "No session 'gone' known", name="org.freedesktop.login1.NoSuchSession")
                return dbus.ObjectPath(PREFIX + session_id)

            @dbus.service.method(MANAGER, in_signature="u", out_signature="o", sender_keyword="sender")
            def GetSessionByPID(self, pid, sender=None):
                print("GetSessionByPID", pid, "from", sender, flush=True)
                return dbus.ObjectPath(PREFIX + "bypid")

            @dbus.service.method(MANAGER, in_signature="", out_signature="a(susso)")
            def ListSessions(self):
                return [session.listed for session in sessions]

        def command(source, condition):
            line = sys.stdin.readline()
            if not line:
                loop.quit()
                return False
            words = line.split()
            if len(words) == 2 and words[0] == "lock":
                bus.send_message(dbus.lowlevel.SignalMessage(words[1], "org.freedesktop.login1.Session", "Lock"))
                bus.flush()
                print("sent Lock to", words[1], flush=True)
            elif len(words) == 9 and words[0] == "session":
                sessions.append(Session(words[1:]))
                print("added session", words[1], flush=True)
            return True

        name = dbus.service.BusName("org.freedesktop.login1", bus)
        Manager(bus, "/org/freedesktop/login1")
        loop = GLib.MainLoop()
        GLib.io_add_watch(sys.stdin, GLib.IO_IN | GLib.IO_HUP, command)
        print("logind ready", flush=True)
        loop.run()

        """#
}
