/* fileio: whole-file reads with clear failure reasons. */
#include "util/fileio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/sbuf.h"

bool fileio_looks_binary(const char *data, size_t len)
{
    return memchr(data, '\0', len) != NULL;
}

fileio_status fileio_read(const char *path, size_t max_bytes, char **out, size_t *len)
{
    FILE *f;
    bool is_stdin = strcmp(path, "-") == 0;
    if (is_stdin) {
        f = stdin;
    } else {
        struct stat st;
        if (stat(path, &st) != 0)
            return errno == ENOENT || errno == ENOTDIR ? FILEIO_NOT_FOUND : FILEIO_UNREADABLE;
        if (S_ISDIR(st.st_mode))
            return FILEIO_IS_DIRECTORY;
        f = fopen(path, "rb");
        if (!f)
            return FILEIO_UNREADABLE;
    }
    sbuf b;
    sbuf_init(&b);
    char chunk[65536];
    size_t n;
    fileio_status st = FILEIO_OK;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (b.len + n > max_bytes) {
            st = FILEIO_TOO_LARGE;
            break;
        }
        sbuf_addn(&b, chunk, n);
    }
    if (st == FILEIO_OK && ferror(f))
        st = FILEIO_UNREADABLE;
    if (!is_stdin)
        fclose(f);
    if (st == FILEIO_OK && fileio_looks_binary(sbuf_str(&b), b.len))
        st = FILEIO_BINARY;
    if (st != FILEIO_OK) {
        sbuf_free(&b);
        return st;
    }
    *len = b.len;
    *out = sbuf_take(&b);
    return FILEIO_OK;
}

const char *fileio_status_text(fileio_status s)
{
    switch (s) {
    case FILEIO_OK:
        return "ok";
    case FILEIO_NOT_FOUND:
        return "no such file";
    case FILEIO_UNREADABLE:
        return "cannot read file";
    case FILEIO_IS_DIRECTORY:
        return "is a directory";
    case FILEIO_BINARY:
        return "binary data, not text";
    case FILEIO_TOO_LARGE:
        return "file too large";
    }
    return "unknown error";
}

bool fileio_write_all(int fd, const void *data, size_t n)
{
    const char *p = data;
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        p += k;
        n -= (size_t)k;
    }
    return true;
}
