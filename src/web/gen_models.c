/* gen_models: write models/ as C tables (web_models.h) for the builds that
 * have no file system. Usage: gen_models MODELS_DIR OUT.c. Every file is
 * parsed by model_parse_* first, so a model the command line would refuse
 * fails the build with the same message. */
#include <dirent.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "util/fileio.h"
#include "util/sbuf.h"

typedef struct emit_ctx {
    sbuf *out;
    size_t n;
} emit_ctx;

static void c_string(sbuf *o, const char *s)
{
    sbuf_addc(o, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            sbuf_addf(o, "\\%c", c);
        else if (c < 0x20 || c >= 0x7f)
            sbuf_addf(o, "\\%03o", c);
        else
            sbuf_addc(o, (char)c);
    }
    sbuf_addc(o, '"');
}

static int on_entry(void *user, const char *section, const char *key, const char *value)
{
    emit_ctx *c = user;
    sbuf_add(c->out, "    {");
    c_string(c->out, section);
    sbuf_add(c->out, ", ");
    c_string(c->out, key);
    sbuf_add(c->out, ", ");
    c_string(c->out, value);
    sbuf_add(c->out, "},\n");
    c->n++;
    return 1;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The .ini names under dir/sub, sorted so that the output is reproducible. */
static size_t list_ini(const char *dir, const char *sub, char ***names)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, sub);
    DIR *d = opendir(path);
    size_t n = 0, cap = 0;
    *names = NULL;
    if (!d)
        return 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".ini") != 0 || e->d_name[0] == '.')
            continue;
        if (n == cap)
            *names = xrealloc(*names, (cap = cap ? 2 * cap : 32) * sizeof **names);
        (*names)[n++] = xstrdup(e->d_name);
    }
    closedir(d);
    qsort(*names, n, sizeof **names, by_name);
    return n;
}

/* One file's entries as a static array; returns its count, -1 on error. */
static long emit_file(const char *dir, const char *sub, const char *name, size_t index, sbuf *out)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s/%s", dir, sub, name);
    char *text;
    size_t len;
    fileio_status st = fileio_read(path, 1 << 20, &text, &len);
    if (st != FILEIO_OK) {
        fprintf(stderr, "gen_models: %s: %s\n", path, fileio_status_text(st));
        return -1;
    }
    model_error err = {0};
    gpu_arch a;
    gpu_product p;
    bool product = strcmp(sub, "gpu") == 0;
    bool ok =
        product ? model_parse_product(text, len, &p, &err) : model_parse_arch(text, len, &a, &err);
    if (!ok) {
        fprintf(stderr, "gen_models: %s:%d: %s\n", path, err.line, err.message);
        free(text);
        return -1;
    }
    emit_ctx c = {out, 0};
    sbuf_addf(out, "static const web_model_entry file%zu[] = {\n", index);
    int rc = ini_parse_string(text, on_entry, &c);
    sbuf_add(out, "};\n\n");
    free(text);
    if (rc != 0) {
        fprintf(stderr, "gen_models: %s:%d: inih refused the line\n", path, rc);
        return -1;
    }
    return (long)c.n;
}

static void table_row(sbuf *t, const char *sub, const char *name, bool product, size_t index,
                      long count)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", sub, name);
    sbuf_add(t, "    {");
    c_string(t, path);
    sbuf_addf(t, ", %s, file%zu, %ld},\n", product ? "true" : "false", index, count);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: gen_models MODELS_DIR OUT.c\n");
        return 2;
    }
    const char *subs[2] = {"arch", "gpu"};
    sbuf body, table;
    sbuf_init(&body);
    sbuf_init(&table);
    sbuf_add(&body, "/* Written by src/web/gen_models.c from models/; do not edit. */\n"
                    "#include \"web/web_models.h\"\n\n");
    size_t index = 0;
    int status = 0;
    for (int s = 0; s < 2 && !status; s++) {
        char **names;
        size_t n = list_ini(argv[1], subs[s], &names);
        if (n == 0) {
            fprintf(stderr, "gen_models: no .ini files in %s/%s\n", argv[1], subs[s]);
            status = 1;
        }
        for (size_t i = 0; i < n; i++) {
            long count = status ? -1 : emit_file(argv[1], subs[s], names[i], index, &body);
            if (count < 0)
                status = 1;
            else
                table_row(&table, subs[s], names[i], s == 1, index++, count);
            free(names[i]);
        }
        free(names);
    }
    if (!status) {
        sbuf_add(&body, "const web_model_file web_model_files[] = {\n");
        sbuf_add(&body, sbuf_str(&table));
        sbuf_addf(&body, "};\nconst size_t web_n_model_files = %zu;\n", index);
        FILE *f = fopen(argv[2], "w");
        if (!f || fputs(sbuf_str(&body), f) == EOF || fclose(f) != 0) {
            fprintf(stderr, "gen_models: cannot write %s\n", argv[2]);
            status = 1;
        }
    }
    sbuf_free(&body);
    sbuf_free(&table);
    return status;
}
