/* fileio: read a whole file (or stdin for "-") into memory, refusing
 * binary data, so parsers get text and a precise error. */
#ifndef GPULINT_FILEIO_H
#define GPULINT_FILEIO_H

#include <stdbool.h>
#include <stddef.h>

typedef enum fileio_status {
    FILEIO_OK = 0,
    FILEIO_NOT_FOUND,
    FILEIO_UNREADABLE,
    FILEIO_IS_DIRECTORY,
    FILEIO_BINARY,
    FILEIO_TOO_LARGE,
} fileio_status;

/* Reads at most max_bytes. *out is NUL-terminated; caller frees. */
fileio_status fileio_read(const char *path, size_t max_bytes, char **out, size_t *len);
const char *fileio_status_text(fileio_status s);
/* Text is "binary" when it has NUL bytes. */
bool fileio_looks_binary(const char *data, size_t len);
/* Writes all n bytes, retrying short writes and EINTR; false on error. */
bool fileio_write_all(int fd, const void *data, size_t n);

#endif
