import CBusShims
import Glibc
import PTYKit

/// libsystemd's sd-bus, loaded at run time so that it is not a build or
/// install dependency, with the functions idlewrap calls to follow logind and
/// to ask it for its sessions (`--audit`).
struct SDBusLibrary {
    static let soname = "libsystemd.so.0"

    let openSystem: cbus_open_system_fn
    let close: cbus_close_fn
    let unref: cbus_unref_fn
    let getDescriptor: cbus_get_fd_fn
    let getEvents: cbus_get_events_fn
    let getTimeout: cbus_get_timeout_fn
    let process: cbus_process_fn
    let addFilter: cbus_add_filter_fn
    let addMatch: cbus_add_match_async_fn
    let newMethodCall: cbus_message_new_method_call_fn
    let appendBasic: cbus_message_append_basic_fn
    let callAsync: cbus_call_async_fn
    let unrefMessage: cbus_message_unref_fn
    let readBasic: cbus_message_read_basic_fn
    let getType: cbus_message_get_type_fn
    let getSender: cbus_message_get_string_fn
    let getPath: cbus_message_get_string_fn
    let getInterface: cbus_message_get_string_fn
    let getMember: cbus_message_get_string_fn
    let getError: cbus_message_get_error_fn
    let call: cbus_call_fn
    let enterContainer: cbus_message_enter_container_fn
    let exitContainer: cbus_message_exit_container_fn
    let getPropertyString: cbus_get_property_string_fn
    let getPropertyTrivial: cbus_get_property_trivial_fn
    let freeError: cbus_error_free_fn

    /// Loads libsystemd, or says why it cannot. The library is never unloaded.
    static func load() -> Result<SDBusLibrary, LogindUnavailable> {
        do {
            let library = try RuntimeLibrary(soname)
            return .success(
                try SDBusLibrary(
                    openSystem: library.function("sd_bus_open_system"), close: library.function("sd_bus_close"),
                    unref: library.function("sd_bus_unref"), getDescriptor: library.function("sd_bus_get_fd"),
                    getEvents: library.function("sd_bus_get_events"),
                    getTimeout: library.function("sd_bus_get_timeout"),
                    process: library.function("sd_bus_process"), addFilter: library.function("sd_bus_add_filter"),
                    addMatch: library.function("sd_bus_add_match_async"),
                    newMethodCall: library.function("sd_bus_message_new_method_call"),
                    appendBasic: library.function("sd_bus_message_append_basic"),
                    callAsync: library.function("sd_bus_call_async"),
                    unrefMessage: library.function("sd_bus_message_unref"),
                    readBasic: library.function("sd_bus_message_read_basic"),
                    getType: library.function("sd_bus_message_get_type"),
                    getSender: library.function("sd_bus_message_get_sender"),
                    getPath: library.function("sd_bus_message_get_path"),
                    getInterface: library.function("sd_bus_message_get_interface"),
                    getMember: library.function("sd_bus_message_get_member"),
                    getError: library.function("sd_bus_message_get_error"), call: library.function("sd_bus_call"),
                    enterContainer: library.function("sd_bus_message_enter_container"),
                    exitContainer: library.function("sd_bus_message_exit_container"),
                    getPropertyString: library.function("sd_bus_get_property_string"),
                    getPropertyTrivial: library.function("sd_bus_get_property_trivial"),
                    freeError: library.function("sd_bus_error_free")))
        } catch {
            return .failure(LogindUnavailable("\(soname) is not available: \(error)"))
        }
    }
}

extension SDBusLibrary {
    /// sd-bus's system bus when DBUS_SYSTEM_BUS_ADDRESS is unset.
    static let defaultSystemBus = "/run/dbus/system_bus_socket"

    /// Loads libsystemd and connects to the system bus: `address`, which sd-bus reads
    /// from DBUS_SYSTEM_BUS_ADDRESS, else the standard socket. The caller closes the bus.
    static func openSystemBus(address: String?) -> Result<(SDBusLibrary, OpaquePointer), LogindUnavailable> {
        // Without a bus (a container, a system without systemd), loading
        // libsystemd and its libraries would only slow the start.
        if address == nil && access(defaultSystemBus, F_OK) != 0 {
            return .failure(LogindUnavailable("no system bus at \(defaultSystemBus)"))
        }
        let library: SDBusLibrary
        switch load() {
        case .success(let loaded): library = loaded
        case .failure(let reason): return .failure(reason)
        }
        var bus: OpaquePointer?
        let opened = library.openSystem(&bus)
        guard opened >= 0, let bus else {
            return .failure(LogindUnavailable("no system bus: \(Errno(rawValue: -opened))"))
        }
        return .success((library, bus))
    }

    /// Closes and frees a bus `openSystemBus` opened.
    func closeBus(_ bus: OpaquePointer) {
        close(bus)
        _ = unref(bus)
    }
}

/// Why idlewrap does not follow logind: one sentence for `--verbose`.
struct LogindUnavailable: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
