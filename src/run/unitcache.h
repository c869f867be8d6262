/* unitcache: one file's result kept between runs, so that a second run on
 * an unchanged tree, or one after editing a file, redoes only what changed.
 *
 * An entry is found by a key over everything the result depends on that is
 * known before compiling: gpulint's version and commit, nvcc's identity, the
 * models, the options and targets, the file's name and text and its nvcc
 * arguments. It holds the list of files the compile read (nvcc -MD) with
 * each one's hash, and is used only while every one of them still hashes
 * the same. It stores the worker's record and what the worker printed, so
 * a hit prints the same. Entries are written whole (temporary file, rename)
 * and checked on reading: a torn, corrupt or foreign entry is a miss and is
 * rewritten. Internal to run/. */
#ifndef GPULINT_UNITCACHE_H
#define GPULINT_UNITCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define UNITCACHE_DEFAULT_CAP (512ll << 20)

/* $GPULINT_CACHE_DIR/units (created), or NULL with why in err: no cache
 * configured (err empty), or the directory is not writable. */
char *unitcache_dir(char *err, size_t errlen);

/* A key accumulator (XXH3-128 over length-prefixed parts). */
typedef struct unitcache_key {
    void *state;
} unitcache_key;
void unitcache_key_init(unitcache_key *k);
void unitcache_key_add(unitcache_key *k, const char *tag, const void *data, size_t len);
void unitcache_key_str(unitcache_key *k, const char *tag, const char *s);
/* Ends the key: 32 hex digits into hex[33]. */
void unitcache_key_end(unitcache_key *k, char hex[33]);

/* Hit: the stored record and output (caller frees), true. */
bool unitcache_lookup(const char *dir, const char *key, char **record, size_t *record_len,
                      char **output, size_t *output_len);

/* Stores an entry. deps_text is nvcc's -MD file with the stage's paths
 * already turned back into the user's; paths under skip_prefix (the stage
 * itself: its copy of the source is in the key) are left out. False when
 * it could not be written (the run goes on without it). */
bool unitcache_store(const char *dir, const char *key, const char *deps_text,
                     const char *skip_prefix, const char *record, size_t record_len,
                     const char *output, size_t output_len);

/* Adds every file under dir (names and contents, in sorted order). */
void unitcache_key_tree(unitcache_key *k, const char *dir);

/* Total size and entry count; trim removes the least recently used
 * entries until the total is at most cap bytes. */
void unitcache_stats(const char *dir, int64_t *bytes, size_t *entries);
void unitcache_trim(const char *dir, int64_t cap);

/* The cap: $GPULINT_CACHE_MAX (bytes, K/M/G suffixes) or the default. */
int64_t unitcache_cap(void);

#endif
