/*
 * The text the throughput writer sends, shared by the writer (bench-child.c)
 * and the harness, so the harness knows exactly how many bytes to expect.
 *
 * It looks like a busy service log: lines of 60 to 130 printable ASCII
 * characters ending in '\n'. In cooked mode the terminal's ONLCR turns each
 * '\n' into "\r\n", so the reader receives N + (newlines in the first N bytes);
 * in raw mode it receives exactly N. Nothing else in the text is translated
 * (no tabs, no control characters, no bytes >= 0x80).
 */
#ifndef BENCH_TEXT_H
#define BENCH_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { BENCH_TEXT_SIZE = 64 * 1024 };

static inline uint64_t bench_text_next(uint64_t *state) {
    /* xorshift64*: deterministic, so writer and harness agree byte for byte. */
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717ULL;
}

/* Fills buf[BENCH_TEXT_SIZE]; the last line is cut at the end of the buffer. */
static inline void bench_text_fill(char *buf) {
    static const char *const levels[] = {"INFO ", "DEBUG", "WARN ", "ERROR"};
    static const char *const verbs[] = {"GET", "POST", "PUT", "DELETE"};
    static const char *const paths[] = {
        "/api/v2/items", "/api/v2/users", "/static/css/site.css", "/healthz",
        "/api/v2/orders/search", "/login", "/api/v2/items/batch",
    };
    uint64_t state = 0x9E3779B97F4A7C15ULL;
    size_t used = 0;
    char line[256];
    while (used < BENCH_TEXT_SIZE) {
        uint64_t r = bench_text_next(&state);
        int n = snprintf(line, sizeof line,
            "2024-11-30 14:%02u:%02u.%03u %s [worker-%u] %s %s/%u -> %u (%u bytes, %u.%u ms)%s\n",
            (unsigned)(r % 60), (unsigned)(r >> 8) % 60, (unsigned)(r >> 16) % 1000,
            levels[(r >> 26) % 4], (unsigned)(r >> 28) % 16, verbs[(r >> 32) % 4],
            paths[(r >> 34) % 7], (unsigned)(r >> 37) % 100000,
            (r >> 54) % 8 ? 200u : 404u, (unsigned)(r >> 40) % 65536,
            (unsigned)(r >> 56) % 200, (unsigned)(r >> 60) % 10,
            (r >> 50) % 3 ? "" : " user-agent=\"Mozilla/5.0 (X11; Linux x86_64)\"");
        size_t take = (size_t)n;
        if (take > BENCH_TEXT_SIZE - used) take = BENCH_TEXT_SIZE - used;
        memcpy(buf + used, line, take);
        used += take;
    }
}

static inline uint64_t bench_text_count_newlines(const char *buf, size_t n) {
    uint64_t count = 0;
    for (size_t i = 0; i < n; i++) count += buf[i] == '\n';
    return count;
}

/* Newlines in the first `total` bytes of the endlessly repeated text. */
static inline uint64_t bench_text_newlines(const char *buf, uint64_t total) {
    uint64_t whole = total / BENCH_TEXT_SIZE, rest = total % BENCH_TEXT_SIZE;
    return whole * bench_text_count_newlines(buf, BENCH_TEXT_SIZE)
         + bench_text_count_newlines(buf, (size_t)rest);
}

#endif
