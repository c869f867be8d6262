/* jsontext: JSON strings from text gpulint did not write (file names,
 * source snippets, nvcc's messages). jansson refuses invalid UTF-8 with a
 * NULL; a Latin-1 file name must still appear, so such bytes become U+FFFD
 * rather than a missing field or a crash. */
#ifndef GPULINT_JSONTEXT_H
#define GPULINT_JSONTEXT_H

#include <jansson.h>

/* Never NULL for a non-NULL s. */
json_t *json_text(const char *s);

/* A SARIF artifact URI (RFC 3986 relative reference) for a path: bytes
 * other than unreserved characters and '/' percent-encoded. Caller frees. */
char *json_uri_path(const char *path);

/* Exact bytes through JSON, for gpulint's own records (worker results,
 * the cache): valid UTF-8 as a string, anything else as {"hex": "..."}.
 * json_bytes(NULL) is null; json_bytes_value returns NULL for anything
 * json_bytes cannot have written. Caller frees. */
json_t *json_bytes(const char *s);
char *json_bytes_value(const json_t *j);

#endif
