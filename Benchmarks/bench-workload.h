/*
 * The workloads of the throughput rows (issue 32: the model's cost must not
 * depend on what the command prints), shared by the writer (bench-child.c) and
 * the harness, so that the harness knows exactly how many bytes to expect: a
 * stream made 64 KiB at a time, each chunk written in one write.
 *
 *   log      the service log of bench-text.h, the same 64 KiB again and again
 *   lines79  lines of 79 printable characters, each different
 *            (33 + (line*7 + column) % 94), then '\n'
 *   seq      what `seq 1 N` prints: short lines
 *   yes      what `yes` prints: "y\n"
 *   random   random bytes (xorshift64*): a binary file printed by mistake
 *   PATH     a file's content again and again (coloured `ls -l`, a recorded
 *            vim session): any name with a '/'
 *
 * In cooked mode the terminal's ONLCR turns each '\n' into "\r\n" (the only
 * output processing of a pty's default modes), so the reader receives N plus
 * the newlines in the first N bytes.
 */
#ifndef BENCH_WORKLOAD_H
#define BENCH_WORKLOAD_H

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "bench-text.h"

typedef enum { WORKLOAD_LOG, WORKLOAD_LINES79, WORKLOAD_SEQ, WORKLOAD_YES, WORKLOAD_RANDOM, WORKLOAD_FILE } WorkloadKind;

typedef struct {
    WorkloadKind kind;
    uint64_t line, column; /* lines79: where the next byte goes; seq: the next number */
    uint64_t state;        /* random */
    char pending[24];      /* seq: the rest of a line the last chunk cut */
    size_t pending_length;
    char *file;            /* the file's content */
    size_t file_size, file_offset;
} Workload;

/* Starts the stream of the workload NAME; -1 if there is no such workload (or file). */
static inline int workload_open(Workload *w, const char *name) {
    memset(w, 0, sizeof *w);
    w->line = 1;
    w->state = 0x2545F4914F6CDD1DULL;
    if (!strcmp(name, "log")) w->kind = WORKLOAD_LOG;
    else if (!strcmp(name, "lines79")) w->kind = WORKLOAD_LINES79, w->line = 0;
    else if (!strcmp(name, "seq")) w->kind = WORKLOAD_SEQ;
    else if (!strcmp(name, "yes")) w->kind = WORKLOAD_YES;
    else if (!strcmp(name, "random")) w->kind = WORKLOAD_RANDOM;
    else if (strchr(name, '/')) {
        w->kind = WORKLOAD_FILE;
        int fd = open(name, O_RDONLY | O_CLOEXEC);
        if (fd < 0) return -1;
        size_t capacity = 1 << 20;
        w->file = malloc(capacity);
        ssize_t n;
        while (w->file && (n = read(fd, w->file + w->file_size, capacity - w->file_size)) > 0)
            w->file_size += (size_t)n;
        close(fd);
        if (!w->file || w->file_size == 0) return -1;
    } else {
        return -1;
    }
    return 0;
}

/* The next BENCH_TEXT_SIZE bytes of the stream. */
static inline void workload_next(Workload *w, char *buf) {
    size_t used = 0;
    switch (w->kind) {
    case WORKLOAD_LOG:
        bench_text_fill(buf);
        return;
    case WORKLOAD_LINES79:
        for (; used < BENCH_TEXT_SIZE; used++) {
            buf[used] = w->column == 79 ? '\n' : (char)(33 + (w->line * 7 + w->column) % 94);
            if (++w->column == 80) w->column = 0, w->line++;
        }
        return;
    case WORKLOAD_SEQ:
        while (used < BENCH_TEXT_SIZE) {
            if (w->pending_length == 0)
                w->pending_length = (size_t)snprintf(w->pending, sizeof w->pending, "%llu\n",
                                                     (unsigned long long)w->line++);
            size_t take = w->pending_length < BENCH_TEXT_SIZE - used ? w->pending_length : BENCH_TEXT_SIZE - used;
            memcpy(buf + used, w->pending, take);
            memmove(w->pending, w->pending + take, w->pending_length - take);
            w->pending_length -= take;
            used += take;
        }
        return;
    case WORKLOAD_YES:
        for (; used < BENCH_TEXT_SIZE; used += 2) memcpy(buf + used, "y\n", 2);
        return;
    case WORKLOAD_RANDOM:
        for (; used < BENCH_TEXT_SIZE; used += 8) {
            uint64_t r = bench_text_next(&w->state);
            memcpy(buf + used, &r, 8);
        }
        return;
    case WORKLOAD_FILE:
        for (; used < BENCH_TEXT_SIZE; used++) {
            buf[used] = w->file[w->file_offset];
            if (++w->file_offset == w->file_size) w->file_offset = 0;
        }
        return;
    }
}

/* Newlines in the first `total` bytes of the workload NAME's stream; -1 if none such. */
static inline int64_t workload_newlines(const char *name, uint64_t total) {
    static char buf[BENCH_TEXT_SIZE];
    Workload w;
    if (workload_open(&w, name) < 0) return -1;
    uint64_t count = 0;
    while (total > 0) {
        workload_next(&w, buf);
        size_t n = total < BENCH_TEXT_SIZE ? (size_t)total : BENCH_TEXT_SIZE;
        count += bench_text_count_newlines(buf, n);
        total -= n;
    }
    free(w.file);
    return (int64_t)count;
}

#endif
