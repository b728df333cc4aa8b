// Declarations for the part of libsystemd's sd-bus that idlewrap uses to
// follow logind. libsystemd is loaded at run time with dlopen, so neither its
// headers nor the library are needed to build.
#ifndef CBUSSHIMS_H
#define CBUSSHIMS_H

#include <stdint.h>

#pragma clang assume_nonnull begin

// sd-bus's application interface (<systemd/sd-bus.h>), with our own names and
// the same layout. The function types match the symbols looked up with dlsym.

/// sd_bus, sd_bus_message, sd_bus_slot: opaque.
typedef struct cbus_bus cbus_bus;
typedef struct cbus_message cbus_message;
typedef struct cbus_slot cbus_slot;

/// sd_bus_error.
typedef struct cbus_error {
    const char *_Nullable name;
    const char *_Nullable message;
    int need_free;
} cbus_error;

/// sd_bus_message_handler_t: returns 0 to let other handlers see the message.
typedef int (*cbus_message_handler)(cbus_message *message, void *_Nullable context,
                                    cbus_error *_Nullable error);

/// sd_bus_message_get_type's values.
enum {
    CBUS_MESSAGE_METHOD_RETURN = 2,
    CBUS_MESSAGE_METHOD_ERROR = 3,
    CBUS_MESSAGE_SIGNAL = 4,
};

typedef int (*cbus_open_system_fn)(cbus_bus *_Nullable *_Nonnull bus);
typedef void (*cbus_close_fn)(cbus_bus *bus);
typedef cbus_bus *_Nullable (*cbus_unref_fn)(cbus_bus *_Nullable bus);
typedef int (*cbus_get_fd_fn)(cbus_bus *bus);
typedef int (*cbus_get_events_fn)(cbus_bus *bus);
/// Absolute, in microseconds on CLOCK_MONOTONIC; UINT64_MAX for none.
typedef int (*cbus_get_timeout_fn)(cbus_bus *bus, uint64_t *timeout);
typedef int (*cbus_process_fn)(cbus_bus *bus, cbus_message *_Nullable *_Nullable message);
typedef int (*cbus_add_filter_fn)(cbus_bus *bus, cbus_slot *_Nullable *_Nullable slot,
                                  cbus_message_handler handler, void *_Nullable context);
typedef int (*cbus_add_match_async_fn)(cbus_bus *bus, cbus_slot *_Nullable *_Nullable slot,
                                       const char *match, cbus_message_handler handler,
                                       cbus_message_handler _Nullable installed,
                                       void *_Nullable context);
typedef int (*cbus_message_new_method_call_fn)(cbus_bus *bus,
                                               cbus_message *_Nullable *_Nonnull message,
                                               const char *destination, const char *path,
                                               const char *interface, const char *member);
/// For type 's' and 'o', `value` is the string itself; for 'u', a uint32_t's address.
typedef int (*cbus_message_append_basic_fn)(cbus_message *message, char type,
                                            const void *value);
typedef int (*cbus_call_async_fn)(cbus_bus *bus, cbus_slot *_Nullable *_Nullable slot,
                                  cbus_message *message, cbus_message_handler handler,
                                  void *_Nullable context, uint64_t timeout_microseconds);
typedef cbus_message *_Nullable (*cbus_message_unref_fn)(cbus_message *_Nullable message);
/// For type 's' and 'o', `value` receives a `const char *` valid while the message is.
typedef int (*cbus_message_read_basic_fn)(cbus_message *message, char type, void *value);
typedef int (*cbus_message_get_type_fn)(cbus_message *message, uint8_t *type);
/// sd_bus_message_get_sender, _get_path, _get_interface, _get_member.
typedef const char *_Nullable (*cbus_message_get_string_fn)(cbus_message *message);
typedef const cbus_error *_Nullable (*cbus_message_get_error_fn)(cbus_message *message);
/// sd_bus_call: waits for the reply; `timeout_microseconds` 0 for sd-bus's default (25 s).
typedef int (*cbus_call_fn)(cbus_bus *bus, cbus_message *message, uint64_t timeout_microseconds,
                            cbus_error *_Nullable error, cbus_message *_Nullable *_Nullable reply);
/// sd_bus_message_enter_container: 1 when entered, 0 at the end of the enclosing one.
typedef int (*cbus_message_enter_container_fn)(cbus_message *message, char type,
                                               const char *_Nullable contents);
typedef int (*cbus_message_exit_container_fn)(cbus_message *message);
/// sd_bus_get_property_string: `value` receives a string the caller frees.
typedef int (*cbus_get_property_string_fn)(cbus_bus *bus, const char *destination,
                                           const char *path, const char *interface,
                                           const char *member, cbus_error *_Nullable error,
                                           char *_Nullable *_Nonnull value);
/// sd_bus_get_property_trivial: for type 'b', `value` is an int's address; for 'u', a uint32_t's.
typedef int (*cbus_get_property_trivial_fn)(cbus_bus *bus, const char *destination,
                                            const char *path, const char *interface,
                                            const char *member, cbus_error *_Nullable error,
                                            char type, void *value);
typedef void (*cbus_error_free_fn)(cbus_error *_Nullable error);

#pragma clang assume_nonnull end

#endif
